import { CircleAlert, CircleCheck, Info, MessageSquare, TriangleAlert, X } from 'lucide-react'
import { cx, focusRing } from '../utils'
import type { ToastDismissReason, ToastItem, ToastSeverity } from './ToastProvider'

const severityStyles: Record<ToastSeverity, { box: string; icon: string; close: string }> = {
  info: {
    box: 'bg-info-50 border-info-200 text-info-900',
    icon: 'text-info-700',
    close: 'hover:bg-info-100',
  },
  success: {
    box: 'bg-success-50 border-success-200 text-success-900',
    icon: 'text-success-700',
    close: 'hover:bg-success-100',
  },
  warn: {
    box: 'bg-warning-50 border-warning-200 text-warning-900',
    icon: 'text-warning-700',
    close: 'hover:bg-warning-100',
  },
  error: {
    box: 'bg-danger-50 border-danger-200 text-danger-900',
    icon: 'text-danger-700',
    close: 'hover:bg-danger-100',
  },
  secondary: {
    box: 'bg-surface border-line text-ink',
    icon: 'text-ink-muted',
    close: 'hover:bg-neutral-100',
  },
  contrast: {
    box: 'bg-neutral-900 border-neutral-900 text-white',
    icon: 'text-primary-200',
    close: 'hover:bg-neutral-800 focus-visible:outline-white',
  },
}

const severityLabels: Record<ToastSeverity, string> = {
  info: 'Information',
  success: 'Success',
  warn: 'Warning',
  error: 'Error',
  secondary: 'Notice',
  contrast: 'Notice',
}

const severityIcons = {
  info: Info,
  success: CircleCheck,
  warn: TriangleAlert,
  error: CircleAlert,
  secondary: MessageSquare,
  contrast: Info,
} as const

/** The toasts themselves, inside the provider's live region. */
export default function ToastItems({
  toasts,
  onClose,
}: {
  toasts: readonly ToastItem[]
  onClose: (id: string) => void
}) {
  // The owner hears how the toast went while it is still on screen (focus may be in it).
  const close = (t: ToastItem, reason: ToastDismissReason) => {
    t.onDismiss?.(reason)
    onClose(t.id)
    if (reason === 'action') t.action?.onAction()
  }
  return toasts.map((t) => {
    const styles = severityStyles[t.severity]
    const Icon = severityIcons[t.severity]
    return (
      <li
        key={t.id}
        data-toast=""
        data-severity={t.severity}
        // Escape closes the toast focus is in (its action or Close).
        onKeyDown={(event) => {
          if (event.key === 'Escape') close(t, 'close')
        }}
        className={cx(
          'pointer-events-auto flex items-start gap-3 rounded-xl border p-3.5 shadow-lg',
          'animate-toast-in motion-reduce:animate-none',
          styles.box,
        )}
      >
        <Icon aria-hidden="true" className={cx('mt-0.5 size-5 shrink-0', styles.icon)} />
        <div className="min-w-0 flex-1 text-sm font-medium leading-snug">
          <span className="sr-only">{severityLabels[t.severity]}: </span>
          <p className="break-words">{t.message}</p>
        </div>
        {t.action ? (
          <button
            type="button"
            // biome-ignore lint/a11y/noAutofocus: asked for by the toast, whose action replaces the button just pressed
            autoFocus={t.focusAction}
            onClick={() => close(t, 'action')}
            className={cx(
              '-my-1 inline-flex min-h-8 shrink-0 items-center rounded-md px-2.5 text-sm font-semibold underline underline-offset-2',
              focusRing,
              styles.close,
            )}
          >
            {t.action.label}
          </button>
        ) : null}
        <button
          type="button"
          aria-label="Close"
          onClick={() => close(t, 'close')}
          className={cx(
            '-m-1 inline-flex size-8 shrink-0 items-center justify-center rounded-md opacity-80 hover:opacity-100',
            focusRing,
            styles.close,
          )}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </li>
    )
  })
}
