import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from 'react'
import { afterFirstScreen } from '@/lib/firstScreen'
import { whenIdleAfter } from '@/lib/whenIdle'
import { cx, focusRing } from '../utils'

export type ToastSeverity = 'info' | 'success' | 'warn' | 'error' | 'secondary' | 'contrast'

/** Toast auto-dismiss delay (spec §9): 10 seconds. */
export const TOAST_AUTO_DISMISS_MS = 10_000

/** A button in the toast beside Close (e.g. 'Undo'): pressing it closes the toast and runs `onAction`. */
export interface ToastAction {
  label: string
  onAction: () => void
}

/** How a toast went: its action pressed, Close or Escape, or its time ran out. */
export type ToastDismissReason = 'action' | 'close' | 'timeout'

export interface ToastOptions {
  message: ReactNode
  /** Default 'info'. */
  severity?: ToastSeverity
  /** Remove the toast after 10 seconds (or `durationMs`). Default false: it stays until closed. */
  autoDismiss?: boolean
  /** With `autoDismiss`: how long it shows, when not 10 seconds (an Undo lasts a few). */
  durationMs?: number
  /** Reuse an id to replace an existing toast. Default: a new random string. */
  id?: string
  action?: ToastAction
  /** Move focus to the action's button as the toast shows (the button just pressed is gone). */
  focusAction?: boolean
  /**
   * Called as the toast goes by its action, Close, Escape or its time running out (not by
   * `dismiss`), while it is still on screen: `document.activeElement?.closest('[data-toast]')`
   * tells whether focus was in it, to be put back somewhere sensible.
   */
  onDismiss?: (reason: ToastDismissReason) => void
}

export interface ToastItem extends ToastOptions {
  id: string
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

/** How long after the first screen has shown the toasts' look loads (then when idle). */
const TOAST_LOOK_DELAY_MS = 1_000

/**
 * The toasts' look (icons, colours), loaded a moment after the first screen has shown (so it
 * never shares the network with that screen's data and code) or with the first toast.
 * Should its code fail to load (offline, a new release), the words still show, plainly.
 */
const loadToastItems = () => import('./ToastItems').catch(() => ({ default: PlainToastItems }))
const ToastItems = lazy(loadToastItems)

function PlainToastItems({
  toasts,
  onClose,
}: {
  toasts: readonly ToastItem[]
  onClose: (id: string) => void
}) {
  return toasts.map((t) => (
    <li
      key={t.id}
      className="pointer-events-auto flex items-start gap-3 rounded-xl border border-line bg-surface p-3.5 text-sm text-ink shadow-lg"
    >
      <p className="min-w-0 flex-1 break-words">{t.message}</p>
      <button
        type="button"
        onClick={() => onClose(t.id)}
        className={cx('rounded-md px-1 font-semibold', focusRing)}
      >
        Close
      </button>
    </li>
  ))
}

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
    (options: ToastOptions) => {
      const { severity = 'info', autoDismiss = false, id } = options
      const toastId = id ?? randomId()
      clearTimer(toastId)
      const item: ToastItem = { ...options, id: toastId, severity, autoDismiss }
      setToasts((list) =>
        list.some((t) => t.id === toastId)
          ? list.map((t) => (t.id === toastId ? item : t))
          : [...list, item],
      )
      if (autoDismiss) {
        timers.current.set(
          toastId,
          setTimeout(() => {
            item.onDismiss?.('timeout')
            dismiss(toastId)
          }, options.durationMs ?? TOAST_AUTO_DISMISS_MS),
        )
      }
      return toastId
    },
    [clearTimer, dismiss],
  )

  useEffect(() => afterFirstScreen(() => whenIdleAfter(TOAST_LOOK_DELAY_MS, loadToastItems)), [])

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
        {toasts.length > 0 && (
          <Suspense fallback={null}>
            <ToastItems toasts={toasts} onClose={onClose} />
          </Suspense>
        )}
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
