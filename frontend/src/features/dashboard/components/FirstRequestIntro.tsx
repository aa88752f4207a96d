import { Clock, MessageCircle, Sparkles } from 'lucide-react'
import { useId } from 'react'
import { ASSISTANT_NAME, Assistant, Button, Heading, Paragraph } from '@/design-system'

/**
 * The first-request introduction (spec §2 Dashboard, §1): Penny explains the concierge and that
 * users save an estimated 3-4 hours per task.
 */
export function FirstRequestIntro({ onCreate }: { onCreate: () => void }) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-6 rounded-3xl bg-primary-50 p-6 sm:flex-row sm:items-center sm:p-8"
    >
      <Assistant size="lg" waving title={ASSISTANT_NAME} className="self-center" />
      <div className="flex flex-col gap-4">
        <Heading level={2} id={headingId}>
          Let's get your first request started
        </Heading>
        <Paragraph>
          I'm {ASSISTANT_NAME}. Tell me about a task you'd rather not spend your evening on, and a
          real person on our concierge team will take it from there: researching options, making
          calls, booking and following up.
        </Paragraph>
        <ul className="flex flex-col gap-2 text-sm text-ink">
          <li className="flex items-start gap-2">
            <Clock aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-700" />
            <span>
              Members save an estimated <strong>3-4 hours per task</strong>.
            </span>
          </li>
          <li className="flex items-start gap-2">
            <MessageCircle aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-700" />
            <span>Your concierge messages you right inside the request.</span>
          </li>
          <li className="flex items-start gap-2">
            <Sparkles aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-primary-700" />
            <span>Answer a few quick questions and we'll handle the rest.</span>
          </li>
        </ul>
        <Button onClick={onCreate} className="self-start">
          Create a request
        </Button>
      </div>
    </section>
  )
}
