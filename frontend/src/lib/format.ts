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

/**
 * Date defaults (spec §9): English, dates as mm/dd/yy, weeks starting on Sunday, whatever the
 * browser's own locale. Every date the product shows goes through the formatters below. The
 * product has no calendar of its own (date questions use the browser's date input); one added
 * later starts its weeks on `WEEK_STARTS_ON`.
 */
export const DATE_LOCALE = 'en-US'
export const DATE_FORMAT = 'mm/dd/yy'
/** 0 = Sunday, as `Date.prototype.getDay` counts. */
export const WEEK_STARTS_ON = 0

/** A formatter made on first use: making one loads its locale data, a cost paid on first paint. */
function lazyFormat(options: Intl.DateTimeFormatOptions): () => Intl.DateTimeFormat {
  let format: Intl.DateTimeFormat | undefined
  return () => {
    format ??= new Intl.DateTimeFormat(DATE_LOCALE, options)
    return format
  }
}

const dateFormat = lazyFormat({ month: '2-digit', day: '2-digit', year: '2-digit' })
const timeFormat = lazyFormat({ hour: 'numeric', minute: '2-digit' })
const longDateFormat = lazyFormat({ month: 'long', day: 'numeric', year: 'numeric' })

function toDate(value: string | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** '11/22/26' (mm/dd/yy, local time); '' for an unreadable date. */
export function formatDate(value: string | Date): string {
  const date = toDate(value)
  return date ? dateFormat().format(date) : ''
}

/** '11/22/26, 3:04 PM': a timestamp's tooltip; '' for an unreadable date. */
export function formatDateTime(value: string | Date): string {
  const date = toDate(value)
  return date ? `${dateFormat().format(date)}, ${timeFormat().format(date)}` : ''
}

/** 'November 22, 2026': a date in a sentence ('Member since ...'); '' when unreadable. */
export function formatLongDate(value: string | Date): string {
  const date = toDate(value)
  return date ? longDateFormat().format(date) : ''
}
