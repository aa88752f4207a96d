import { ArrowRight, Clock, MessageCircle, Sparkles, UserRoundCheck } from 'lucide-react'
import type { ReactNode } from 'react'
import { ASSISTANT_NAME, Assistant, Button, Heading, Overline, Paragraph } from '@/design-system'
import { config } from '@/lib/config'
import { useCurrentUser } from '@/lib/currentUser'
import { OnboardingLayout } from '../components/OnboardingLayout'
import { StepActions } from '../components/StepActions'

/** Onboarding step 1 of 3: what the service does. */
export default function AboutUs() {
  const user = useCurrentUser()
  return (
    <OnboardingLayout step={1}>
      <div className="flex flex-col gap-8">
        <div className="flex flex-col items-start gap-5 sm:flex-row sm:items-center">
          <Assistant size="lg" waving title={`${ASSISTANT_NAME}, your assistant`} />
          <header className="flex flex-col gap-2">
            <Overline>Welcome, {user.first_name}</Overline>
            <Heading level={1}>Meet your personal concierge</Heading>
            <Paragraph tone="muted">
              I’m {ASSISTANT_NAME}. With {config.productName}, you hand off the everyday tasks that
              eat up your time, and a real person takes care of them for you.
            </Paragraph>
          </header>
        </div>

        <ol className="grid gap-4 sm:grid-cols-3">
          <Feature icon={<MessageCircle />} title="Tell us what you need">
            Answer a few quick questions about the task, from booking a vet to comparing quotes.
          </Feature>
          <Feature icon={<UserRoundCheck />} title="A concierge gets to work">
            A real person researches, calls and arranges things, and keeps you posted.
          </Feature>
          <Feature icon={<Sparkles />} title="Enjoy your benefits">
            Browse the benefits and partner offers your employer makes available to you.
          </Feature>
        </ol>

        <div className="flex items-start gap-3 rounded-2xl bg-accent-50 p-4 text-accent-900">
          <Clock aria-hidden="true" className="mt-0.5 size-5 shrink-0 text-accent-700" />
          <p className="text-base">
            Handing off a to-do <strong>saves an estimated 3-4 hours per task</strong>.
          </p>
        </div>

        <StepActions>
          <Button to="/welcome/about-you" icon={<ArrowRight />} iconPosition="end">
            Continue
          </Button>
        </StepActions>
      </div>
    </OnboardingLayout>
  )
}

function Feature({
  icon,
  title,
  children,
}: {
  icon: ReactNode
  title: string
  children: ReactNode
}) {
  return (
    <li className="flex flex-col gap-2 rounded-2xl border border-line bg-canvas p-4">
      <span
        aria-hidden="true"
        className="inline-flex size-10 items-center justify-center rounded-full bg-primary-50 text-primary-700 [&_svg]:size-5"
      >
        {icon}
      </span>
      <h2 className="text-base font-semibold text-ink">{title}</h2>
      <Paragraph size="sm" tone="muted">
        {children}
      </Paragraph>
    </li>
  )
}
