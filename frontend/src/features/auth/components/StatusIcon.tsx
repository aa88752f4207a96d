import { CircleCheck, CircleX, MailCheck } from 'lucide-react'
import { Paragraph, Spinner } from '@/design-system'

/** The big tick or cross of a link's outcome (unlock, email confirmation). */
export function StatusIcon({ ok }: { ok: boolean }) {
  const Icon = ok ? CircleCheck : CircleX
  return (
    <span
      className={
        ok
          ? 'inline-flex size-14 items-center justify-center rounded-full bg-success-50 text-success-700'
          : 'inline-flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600'
      }
    >
      <Icon aria-hidden="true" className="size-7" />
    </span>
  )
}

/** The envelope of 'Check your email' (a reset link, or a sign-up to confirm, was sent). */
export function MailSentIcon() {
  return (
    <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary-50 text-primary-700">
      <MailCheck aria-hidden="true" className="size-7" />
    </span>
  )
}

/** While a link is being checked: a spinner with what is happening. */
export function StatusWorking({ label }: { label: string }) {
  return (
    <div className="flex flex-col items-center gap-5 py-10 text-center">
      <Spinner size="lg" className="text-primary-600" label={label} />
      <Paragraph size="lg" weight="semibold" aria-hidden="true">
        {label}
      </Paragraph>
    </div>
  )
}
