import { CircleAlert } from 'lucide-react'

/** The server-error box shown above a form's submit button (spec §8 'Form errors'). */
export function FormError({ message }: { message?: string | null }) {
  if (!message) return null
  return (
    <div
      role="alert"
      className="flex items-start gap-2.5 rounded-lg border border-danger-200 bg-danger-50 px-3.5 py-3 text-sm font-medium text-danger-800"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger-600" />
      <p>{message}</p>
    </div>
  )
}
