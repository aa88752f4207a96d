/** The 'New message' pill and the thread's live region (see `useThreadFollow`). */
import { ArrowDown } from 'lucide-react'
import { cx, focusRing } from '@/design-system'

/** Shown while a new message waits below what the reader is looking at. */
export function NewMessagePill({ onClick }: { onClick: () => void }) {
  return (
    <div className="pointer-events-none absolute inset-x-0 -top-14 flex justify-center">
      <button
        type="button"
        onClick={onClick}
        className={cx(
          'pointer-events-auto inline-flex min-h-11 items-center gap-2 rounded-full bg-primary-700 px-4 text-sm font-semibold text-white shadow-lg',
          'hover:bg-primary-800 motion-safe:animate-fade-in',
          focusRing,
        )}
      >
        <ArrowDown aria-hidden="true" className="size-4" />
        New message
      </button>
    </div>
  )
}

/** A polite live region: screen readers read each new message from the other side once. */
export function ThreadAnnouncer({ text }: { text: string }) {
  return (
    <div aria-live="polite" aria-atomic="true" data-thread-announcer="" className="sr-only">
      {text}
    </div>
  )
}
