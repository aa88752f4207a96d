import { CircleAlert, CircleCheck, Info, MessageSquare, TriangleAlert, X } from 'lucide-react'
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { cx, focusRing } from '../utils'

export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast'

/** Toast auto-dismiss delay (spec §9): 10 seconds. */
export const TOAST_AUTO_DISMISS_MS = 10_000

export interface ToastOptions {
  message: ReactNode
  /** Default 'info'. */
  severity?: ToastSeverity
  /** Remove the toast after 10 seconds. Default false: it stays until closed. */
  autoDismiss?: boolean
  /** Reuse an id to replace an existing toast. Default: a new random string. */
  id?: string
}

export interface ToastItem {
  id: string
  message: ReactNode
  severity: ToastSeverity
  autoDismiss: boolean
}

export interface ToastApi {
  /** Shows a toast and returns its id. */
  toast: (options: ToastOptions) => string
  dismiss: (id: string) => void
  dismissAll: () => void
  toasts: readonly ToastItem[]
}

const ToastContext = createContext<ToastApi | null>(null)

function randomId(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function')
    return crypto.randomUUID()
  return Math.random().toString(36).slice(2) + Date.now().toString(36)
}

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

export interface ToastProviderProps {
  children?: ReactNode
  /** Extra classes for the fixed region (e.g. to lift it above a mobile bottom bar: 'bottom-16 sm:bottom-auto'). */
  regionClassName?: string
}

/**
 * Holds the toasts and renders the 'Notifications' region: top-right on sm+ screens,
 * along the bottom on small screens. Use `useToast()` below it.
 */
export function ToastProvider({ children, regionClassName }: ToastProviderProps) {
  const [toasts, setToasts] = useState<ToastItem[]>([])
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>())

  const clearTimer = useCallback((id: string) => {
    const timer = timers.current.get(id)
    if (timer !== undefined) {
      clearTimeout(timer)
      timers.current.delete(id)
    }
  }, [])

  const dismiss = useCallback(
    (id: string) => {
      clearTimer(id)
      setToasts((list) => list.filter((t) => t.id !== id))
    },
    [clearTimer],
  )

  const dismissAll = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer)
    timers.current.clear()
    setToasts([])
  }, [])

  const toast = useCallback(
    ({ message, severity = 'info', autoDismiss = false, id }: ToastOptions) => {
      const toastId = id ?? randomId()
      clearTimer(toastId)
      const item: ToastItem = { id: toastId, message, severity, autoDismiss }
      setToasts((list) =>
        list.some((t) => t.id === toastId)
          ? list.map((t) => (t.id === toastId ? item : t))
          : [...list, item],
      )
      if (autoDismiss) {
        timers.current.set(
          toastId,
          setTimeout(() => dismiss(toastId), TOAST_AUTO_DISMISS_MS),
        )
      }
      return toastId
    },
    [clearTimer, dismiss],
  )

  useEffect(() => {
    const map = timers.current
    return () => {
      for (const timer of map.values()) clearTimeout(timer)
      map.clear()
    }
  }, [])

  const api = useMemo<ToastApi>(
    () => ({ toast, dismiss, dismissAll, toasts }),
    [toast, dismiss, dismissAll, toasts],
  )

  return (
    <ToastContext.Provider value={api}>
      {children}
      <ToastRegion toasts={toasts} onClose={dismiss} className={regionClassName} />
    </ToastContext.Provider>
  )
}

function ToastRegion({
  toasts,
  onClose,
  className,
}: {
  toasts: ToastItem[]
  onClose: (id: string) => void
  className?: string
}) {
  return (
    <section
      aria-label="Notifications"
      className={cx(
        'pointer-events-none fixed inset-x-0 bottom-0 z-toast p-3 pb-[max(0.75rem,env(safe-area-inset-bottom))]',
        'sm:inset-x-auto sm:bottom-auto sm:top-0 sm:right-0 sm:w-[26rem] sm:p-4',
        className,
      )}
    >
      <ol aria-live="polite" aria-relevant="additions text" className="flex flex-col gap-2">
        {toasts.map((t) => {
          const styles = severityStyles[t.severity]
          const Icon = severityIcons[t.severity]
          return (
            <li
              key={t.id}
              data-severity={t.severity}
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
              <button
                type="button"
                aria-label="Close"
                onClick={() => onClose(t.id)}
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
        })}
      </ol>
    </section>
  )
}

/** `const { toast } = useToast(); toast({ message: 'Saved', severity: 'success', autoDismiss: true })`. */
export function useToast(): ToastApi {
  const api = useContext(ToastContext)
  if (!api) throw new Error('useToast must be used inside <ToastProvider>')
  return api
}
