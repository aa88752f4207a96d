import { CircleAlert } from 'lucide-react'
import { useEffect, useRef } from 'react'

/**
 * The server-error box shown above a form's submit button (spec §8 'Form errors'). When it
 * appears it takes keyboard focus, so focus is not lost while the submit button is busy and a
 * keyboard user continues from the message.
 */
export function FormError({ message }: { message?: string | null }) {
  const box = useRef<HTMLDivElement>(null)
  useEffect(() => {
    if (message) box.current?.focus({ preventScroll: false })
  }, [message])
  if (!message) return null
  return (
    <div
      ref={box}
      role="alert"
      tabIndex={-1}
      className="flex items-start gap-2.5 rounded-lg border border-danger-200 bg-danger-50 px-3.5 py-3 text-sm font-medium text-danger-800 outline-none"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-danger-600" />
      <p>{message}</p>
    </div>
  )
}
