import { BellRing } from 'lucide-react'
import { useId, useState } from 'react'
import { Button, FormError, Paragraph, useToast } from '@/design-system'
import { usePushDevice } from '../usePushDevice'

export const PROMPT_STORAGE_KEY = 'concierge.push-prompt'
export const PROMPT_TITLE = 'Want to know when your concierge replies?'
export const PUSH_TURNED_ON = 'Notifications are on for this browser.'

function remembered(): boolean {
  try {
    return localStorage.getItem(PROMPT_STORAGE_KEY) !== null
  } catch {
    return false
  }
}

function remember(answer: 'dismissed' | 'accepted') {
  try {
    localStorage.setItem(PROMPT_STORAGE_KEY, answer)
  } catch {
    // storage refused (private mode): the prompt may show again next time
  }
}

/**
 * The app's own question before the browser's permission prompt (issue 28): only for someone
 * who has made a request, only while this browser can get push and has not been asked, and
 * never again once answered or dismissed.
 */
export function PushPrompt({ requestCount }: { requestCount: number }) {
  const headingId = useId()
  const push = usePushDevice()
  const { toast } = useToast()
  const [hidden, setHidden] = useState(remembered)
  const [error, setError] = useState<string | null>(null)
  // Refused by the browser just now: the prompt stays to say how to allow them.
  if (hidden || requestCount < 1 || (push.state !== 'off' && !error)) return null

  const dismiss = () => {
    remember('dismissed')
    setHidden(true)
  }
  const turnOn = async () => {
    const problem = await push.turnOn()
    if (problem) {
      setError(problem)
      return
    }
    remember('accepted')
    setHidden(true)
    toast({ message: PUSH_TURNED_ON, severity: 'success', autoDismiss: true })
  }

  return (
    <section
      aria-labelledby={headingId}
      data-testid="push-prompt"
      className="flex flex-col gap-4 rounded-2xl border border-primary-200 bg-primary-50 p-5 sm:flex-row sm:items-center"
    >
      <BellRing aria-hidden="true" className="size-8 shrink-0 text-primary-700" />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <h2 id={headingId} className="text-base font-semibold text-ink">
          {PROMPT_TITLE}
        </h2>
        <Paragraph size="sm" tone="muted">
          We’ll send a notification to this device when there’s a reply or a request is done. You
          can change this any time in Account Settings.
        </Paragraph>
        <FormError message={error} />
      </div>
      <div className="flex shrink-0 flex-wrap gap-2">
        <Button loading={push.busy} onClick={() => void turnOn()}>
          Turn on notifications
        </Button>
        <Button variant="tertiary" onClick={dismiss}>
          Not now
        </Button>
      </div>
    </section>
  )
}
