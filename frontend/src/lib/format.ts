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
const longDateFormat = lazyFormat({ month: 'long', day: 'numeric', year: 'numeric' })

function toDate(value: string | number | Date): Date | null {
  const date = value instanceof Date ? value : new Date(value)
  return Number.isNaN(date.getTime()) ? null : date
}

/** '11/22/26' (mm/dd/yy, local time); '' for an unreadable date. */
export function formatDate(value: string | Date): string {
  const date = toDate(value)
  return date ? dateFormat().format(date) : ''
}

const DAY_MS = 86_400_000

/** Formatters by time zone ('' is the viewer's own), made on first use. */
const calendarFormats = new Map<string, Intl.DateTimeFormat>()
const clockFormats = new Map<string, Intl.DateTimeFormat>()

function zoned(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string | undefined,
  options: Intl.DateTimeFormatOptions,
): Intl.DateTimeFormat {
  const key = timeZone ?? ''
  let format = cache.get(key)
  if (!format) {
    format = new Intl.DateTimeFormat(DATE_LOCALE, { ...options, timeZone })
    cache.set(key, format)
  }
  return format
}

function partsOf(format: Intl.DateTimeFormat, date: Date): Record<string, string> {
  const parts: Record<string, string> = {}
  for (const part of format.formatToParts(date)) parts[part.type] = part.value
  return parts
}

/** The calendar day `date` falls on in the zone: its year and its number since 1 January 1970. */
function calendarDay(date: Date, timeZone: string | undefined): { year: string; day: number } {
  const { year, month, day } = partsOf(
    zoned(calendarFormats, timeZone, { year: 'numeric', month: 'numeric', day: 'numeric' }),
    date,
  )
  return {
    year,
    day: Math.round(Date.UTC(Number(year), Number(month) - 1, Number(day)) / DAY_MS),
  }
}

export interface WhenOptions {
  /** The moment 'today' is counted from (tests; screens that refresh their clock). */
  now?: number | string | Date
  /** An IANA zone; the viewer's own by default. */
  timeZone?: string
  /** 'Today 4:00 PM': for text that stands alone or begins a sentence. */
  capitalize?: boolean
}

/**
 * A point in time, the same on every screen (English, as spec §9 fixes, in the viewer's time
 * zone): 'today 4:00 PM', 'tomorrow 9:00 AM', 'yesterday 6:30 PM', otherwise 'Mon, Nov 30,
 * 9:00 AM', with the year when it is not the current one ('Mon, Nov 30, 2025, 9:00 AM').
 * Written to follow words ('Expect a reply by today 4:00 PM'); `capitalize` for a tooltip or
 * the start of a sentence. '' for an unreadable date.
 */
export function formatWhen(value: string | Date, options: WhenOptions = {}): string {
  const date = toDate(value)
  const now = toDate(options.now ?? new Date())
  if (!date || !now) return ''
  const { timeZone } = options
  const parts = partsOf(
    zoned(clockFormats, timeZone, {
      weekday: 'short',
      month: 'short',
      day: 'numeric',
      year: 'numeric',
      hour: 'numeric',
      minute: '2-digit',
      hourCycle: 'h12',
    }),
    date,
  )
  const time = `${parts.hour}:${parts.minute} ${parts.dayPeriod}`
  const today = calendarDay(now, timeZone)
  const days = calendarDay(date, timeZone).day - today.day
  let text: string
  if (days === 0) text = `today ${time}`
  else if (days === 1) text = `tomorrow ${time}`
  else if (days === -1) text = `yesterday ${time}`
  else {
    const year = today.year === parts.year ? '' : `, ${parts.year}`
    text = `${parts.weekday}, ${parts.month} ${parts.day}${year}, ${time}`
  }
  return options.capitalize ? text.charAt(0).toUpperCase() + text.slice(1) : text
}

/** 'November 22, 2026': a date in a sentence ('Member since ...'); '' when unreadable. */
export function formatLongDate(value: string | Date): string {
  const date = toDate(value)
  return date ? longDateFormat().format(date) : ''
}
