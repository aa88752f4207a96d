import { AlarmClock, Clock, MessageCircleReply, PauseCircle } from 'lucide-react'
import { cx } from '@/design-system'
import { formatWhen } from '@/lib/format'
import type { QueueItem } from '../api'

/** The employee wrote last (or nobody has yet): the request waits on the concierge. */
export function NeedsReplyBadge({ className }: { className?: string }) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-accent-800 ring-1 ring-accent-200 ring-inset',
        className,
      )}
    >
      <MessageCircleReply aria-hidden="true" className="size-3.5" />
      Needs reply
    </span>
  )
}

/** Who the request is assigned to, or 'Unassigned'. */
export function AssigneeName({ name }: { name: string | null | undefined }) {
  return name ? (
    <span className="text-ink">{name}</span>
  ) : (
    <span className="text-ink-muted italic">Unassigned</span>
  )
}

export type Sla = NonNullable<QueueItem['sla']>

/** '2 h 5 min', '35 min', '3 d 4 h': a short span for the reply-time badges. */
export function shortDuration(ms: number): string {
  const minutes = Math.max(1, Math.round(Math.abs(ms) / 60_000))
  if (minutes < 60) return `${minutes} min`
  const hours = Math.floor(minutes / 60)
  if (hours < 24) {
    const rest = minutes % 60
    return rest ? `${hours} h ${rest} min` : `${hours} h`
  }
  const days = Math.floor(hours / 24)
  const restHours = hours % 24
  return restHours ? `${days} d ${restHours} h` : `${days} d`
}

/** The server's 'due_soon': a deadline within the hour. */
const DUE_SOON_MS = 60 * 60_000
const RUNNING_STATES: Sla['state'][] = ['on_track', 'due_soon', 'overdue']

/** Where a running clock stands at `now`: the queue is not reloaded when a deadline passes,
 * so a request loaded on track turns due soon, then overdue, on screen (never back). */
export function slaStateAt(sla: Sla, now: number): Sla['state'] {
  if (!sla.due_at || !RUNNING_STATES.includes(sla.state)) return sla.state
  const left = new Date(sla.due_at).getTime() - now
  const state = left <= 0 ? 'overdue' : left <= DUE_SOON_MS ? 'due_soon' : 'on_track'
  return RUNNING_STATES.indexOf(state) > RUNNING_STATES.indexOf(sla.state) ? state : sla.state
}

const SLA_TONES = {
  overdue: 'bg-danger-600 text-white ring-danger-700',
  due_soon: 'bg-warning-50 text-warning-800 ring-warning-200',
  on_track: 'bg-success-50 text-success-800 ring-success-200',
  paused: 'bg-neutral-100 text-ink-muted ring-line',
} as const

/** Where the request stands against its company's reply-time promise: time left, overdue, or
 * paused while it waits on the employee. Nothing for a completed request or without a promise. */
export function SlaBadge({
  sla,
  now,
  className,
}: {
  sla: Sla | null | undefined
  now: number
  className?: string
}) {
  if (!sla) return null
  const state = slaStateAt(sla, now)
  if (state === 'completed') return null
  const what = sla.target === 'first_response' ? 'First reply' : 'Resolution'
  let label: string
  let title: string
  if (state === 'paused' || !sla.due_at) {
    label = 'Clock paused'
    title = 'Waiting on the employee: the reply-time clock resumes when they write.'
  } else {
    const due = new Date(sla.due_at)
    const left = due.getTime() - now
    label = left <= 0 ? `Overdue ${shortDuration(left)}` : `Due in ${shortDuration(left)}`
    title = `${what} due ${formatWhen(due, { now })}`
  }
  const Icon = state === 'paused' ? PauseCircle : state === 'overdue' ? AlarmClock : Clock
  return (
    <span
      data-sla={state}
      title={title}
      className={cx(
        'inline-flex items-center gap-1 rounded-full px-2 py-0.5 text-xs font-semibold whitespace-nowrap tabular-nums ring-1 ring-inset',
        SLA_TONES[state],
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {label}
      <span className="sr-only">. {title}</span>
    </span>
  )
}
