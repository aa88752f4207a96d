/**
 * Display formatting shared by the request screens: status labels (spec §4 'Request status')
 * and relative times (spec §9 'Relative time').
 */
import type { RequestStatus } from '@/api/enums'

export type StatusLabel = 'In Queue' | 'In Progress' | 'Completed' | 'Unknown'

const STATUS_LABELS: Record<RequestStatus, StatusLabel> = {
  open: 'In Queue',
  in_progress: 'In Progress',
  closed: 'Completed',
}

/** Whether a value from the server is one of the statuses the API declares. */
export function isRequestStatus(value: unknown): value is RequestStatus {
  return typeof value === 'string' && Object.hasOwn(STATUS_LABELS, value)
}

/** open → 'In Queue', in_progress → 'In Progress', closed → 'Completed', anything else 'Unknown'. */
export function statusLabel(status: string | null | undefined): StatusLabel {
  return isRequestStatus(status) ? STATUS_LABELS[status] : 'Unknown'
}

const MINUTE = 60
const HOUR = 60 * MINUTE
const DAY = 24 * HOUR
const MONTH = 30 * DAY
const YEAR = 365 * DAY

function ago(count: number, unit: string): string {
  return `${count} ${unit}${count === 1 ? '' : 's'} ago`
}

/**
 * How long ago `iso` was: under 1 minute 'Just now', then minutes, hours, days, months (30 days)
 * and years (365 days), e.g. '5 minutes ago', '1 hour ago'. Times in the future read 'Just now';
 * an unreadable date gives ''.
 */
export function relativeTime(iso: string | Date, now: number | Date = Date.now()): string {
  const then = iso instanceof Date ? iso.getTime() : Date.parse(iso)
  const current = now instanceof Date ? now.getTime() : now
  if (!Number.isFinite(then) || !Number.isFinite(current)) return ''
  const seconds = Math.max(0, Math.floor((current - then) / 1000))
  if (seconds < MINUTE) return 'Just now'
  if (seconds < HOUR) return ago(Math.floor(seconds / MINUTE), 'minute')
  if (seconds < DAY) return ago(Math.floor(seconds / HOUR), 'hour')
  if (seconds < MONTH) return ago(Math.floor(seconds / DAY), 'day')
  if (seconds < YEAR) return ago(Math.floor(seconds / MONTH), 'month')
  return ago(Math.floor(seconds / YEAR), 'year')
}
