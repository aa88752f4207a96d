import {
  createContext,
  lazy,
  type ReactNode,
  type Ref,
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

/** A button in the toast beside Close (e.g. 'Undo'): pressing it runs `onAction` and closes the toast. */
export interface ToastAction {
  label: string
  onAction: () => void
}

/** How a toast went: its action pressed, closed, timed out, or replaced by one with its id. */
export type ToastDismissReason = 'action' | 'close' | 'timeout' | 'replaced' | 'all'

export interface ToastDismissal {
  reason: ToastDismissReason
  /** Focus was in the toast as it went: the caller puts it somewhere sensible. */
  hadFocus: boolean
}

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
  /** Called once when the toast goes, however it goes. */
  onDismiss?: (dismissal: ToastDismissal) => void
}

export interface ToastItem {
  id: string
  message: ReactNode
  severity: ToastSeverity
  autoDismiss: boolean
  action?: ToastAction
  focusAction?: boolean
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

export interface ToastItemsProps {
  toasts: readonly ToastItem[]
  onClose: (id: string) => void
  onAction: (id: string) => void
}

function PlainToastItems({ toasts, onClose, onAction }: ToastItemsProps) {
  return toasts.map((t) => (
    <li
      key={t.id}
      data-toast-id={t.id}
      className="pointer-events-auto flex items-start gap-3 rounded-xl border border-line bg-surface p-3.5 text-sm text-ink shadow-lg"
    >
      <p className="min-w-0 flex-1 break-words">{t.message}</p>
      {t.action ? (
        <ToastActionButton
          item={t}
          onAction={onAction}
          className={cx('rounded-md px-1 font-semibold underline', focusRing)}
        />
      ) : null}
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

/** The action's button; it takes focus as it shows when the toast asks for that. */
export function ToastActionButton({
  item,
  onAction,
  className,
}: {
  item: ToastItem
  onAction: (id: string) => void
  className?: string
}) {
  const ref = useRef<HTMLButtonElement>(null)
  const focusOnShow = item.focusAction === true
  useEffect(() => {
    if (focusOnShow) ref.current?.focus()
  }, [focusOnShow])
  if (!item.action) return null
  return (
    <button ref={ref} type="button" onClick={() => onAction(item.id)} className={className}>
      {item.action.label}
    </button>
  )
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
  const dismissHandlers = useRef(new Map<string, NonNullable<ToastOptions['onDismiss']>>())
  const actions = useRef(new Map<string, ToastAction>())
  const regionRef = useRef<HTMLOListElement>(null)

  /** Tells the toast's owner it went (once), and whether focus was in it. */
  const notifyDismissed = useCallback((id: string, reason: ToastDismissReason) => {
    const handler = dismissHandlers.current.get(id)
    if (!handler) return
    dismissHandlers.current.delete(id)
    const item = regionRef.current?.querySelector(`[data-toast-id="${CSS.escape(id)}"]`)
    const hadFocus = !!item && item.contains(document.activeElement)
    handler({ reason, hadFocus })
  }, [])

  const clearTimer = useCallback((id: string) => {
    const timer = timers.current.get(id)
    if (timer !== undefined) {
      clearTimeout(timer)
      timers.current.delete(id)
    }
  }, [])

  const remove = useCallback(
    (id: string, reason: ToastDismissReason) => {
      clearTimer(id)
      notifyDismissed(id, reason)
      actions.current.delete(id)
      setToasts((list) => list.filter((t) => t.id !== id))
    },
    [clearTimer, notifyDismissed],
  )

  const dismiss = useCallback((id: string) => remove(id, 'close'), [remove])

  const dismissAll = useCallback(() => {
    for (const timer of timers.current.values()) clearTimeout(timer)
    timers.current.clear()
    for (const id of [...dismissHandlers.current.keys()]) notifyDismissed(id, 'all')
    actions.current.clear()
    setToasts([])
  }, [notifyDismissed])

  const toast = useCallback(
    ({
      message,
      severity = 'info',
      autoDismiss = false,
      durationMs,
      id,
      action,
      focusAction,
      onDismiss,
    }: ToastOptions) => {
      const toastId = id ?? randomId()
      clearTimer(toastId)
      notifyDismissed(toastId, 'replaced')
      if (onDismiss) dismissHandlers.current.set(toastId, onDismiss)
      if (action) actions.current.set(toastId, action)
      else actions.current.delete(toastId)
      const item: ToastItem = { id: toastId, message, severity, autoDismiss, action, focusAction }
      setToasts((list) =>
        list.some((t) => t.id === toastId)
          ? list.map((t) => (t.id === toastId ? item : t))
          : [...list, item],
      )
      if (autoDismiss) {
        timers.current.set(
          toastId,
          setTimeout(() => remove(toastId, 'timeout'), durationMs ?? TOAST_AUTO_DISMISS_MS),
        )
      }
      return toastId
    },
    [clearTimer, notifyDismissed, remove],
  )

  /** The toast's action: the toast goes, then the action runs. */
  const runAction = useCallback(
    (id: string) => {
      const action = actions.current.get(id)
      remove(id, 'action')
      action?.onAction()
    },
    [remove],
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
      <ToastRegion
        toasts={toasts}
        onClose={dismiss}
        onAction={runAction}
        listRef={regionRef}
        className={regionClassName}
      />
    </ToastContext.Provider>
  )
}

function ToastRegion({
  toasts,
  onClose,
  onAction,
  listRef,
  className,
}: {
  toasts: ToastItem[]
  onClose: (id: string) => void
  onAction: (id: string) => void
  listRef: Ref<HTMLOListElement>
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
      <ol
        ref={listRef}
        aria-live="polite"
        aria-relevant="additions text"
        className="flex flex-col gap-2"
      >
        {toasts.length > 0 && (
          <Suspense fallback={null}>
            <ToastItems toasts={toasts} onClose={onClose} onAction={onAction} />
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
