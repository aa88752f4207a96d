import { CircleCheck, CircleX } from 'lucide-react'

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
