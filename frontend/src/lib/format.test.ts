import { describe, expect, it } from 'vitest'
import {
  DATE_FORMAT,
  DATE_LOCALE,
  formatDate,
  formatDateTime,
  formatLongDate,
  relativeTime,
  statusLabel,
} from './format'

describe('statusLabel', () => {
  it("§4 request status: open 'In Queue', in_progress 'In Progress', closed 'Completed'", () => {
    expect(statusLabel('open')).toBe('In Queue')
    expect(statusLabel('in_progress')).toBe('In Progress')
    expect(statusLabel('closed')).toBe('Completed')
  })

  it("§4 request status: anything else is 'Unknown'", () => {
    expect(statusLabel('archived')).toBe('Unknown')
    expect(statusLabel('')).toBe('Unknown')
    expect(statusLabel(undefined)).toBe('Unknown')
    expect(statusLabel(null)).toBe('Unknown')
    expect(statusLabel('toString')).toBe('Unknown')
  })
})

describe('relativeTime', () => {
  const now = Date.parse('2025-06-15T12:00:00Z')
  const secondsAgo = (seconds: number) => new Date(now - seconds * 1000).toISOString()

  it("§9 relative time: under 1 minute is 'Just now'", () => {
    expect(relativeTime(secondsAgo(0), now)).toBe('Just now')
    expect(relativeTime(secondsAgo(59), now)).toBe('Just now')
  })

  it('§9 relative time: minutes, then hours, singular and plural', () => {
    expect(relativeTime(secondsAgo(60), now)).toBe('1 minute ago')
    expect(relativeTime(secondsAgo(5 * 60), now)).toBe('5 minutes ago')
    expect(relativeTime(secondsAgo(59 * 60 + 59), now)).toBe('59 minutes ago')
    expect(relativeTime(secondsAgo(3600), now)).toBe('1 hour ago')
    expect(relativeTime(secondsAgo(23 * 3600), now)).toBe('23 hours ago')
  })

  it('§9 relative time: days, months of 30 days, years of 365 days', () => {
    const day = 86_400
    expect(relativeTime(secondsAgo(day), now)).toBe('1 day ago')
    expect(relativeTime(secondsAgo(29 * day), now)).toBe('29 days ago')
    expect(relativeTime(secondsAgo(30 * day), now)).toBe('1 month ago')
    expect(relativeTime(secondsAgo(364 * day), now)).toBe('12 months ago')
    expect(relativeTime(secondsAgo(365 * day), now)).toBe('1 year ago')
    expect(relativeTime(secondsAgo(3 * 365 * day), now)).toBe('3 years ago')
  })

  it("§9 relative time: a future time reads 'Just now'; an unreadable date is empty", () => {
    expect(relativeTime(new Date(now + 60_000).toISOString(), now)).toBe('Just now')
    expect(relativeTime('not a date', now)).toBe('')
  })

  it('§9 relative time: accepts Date objects and defaults to the current time', () => {
    expect(relativeTime(new Date(now - 7200_000), new Date(now))).toBe('2 hours ago')
    expect(relativeTime(new Date(Date.now() - 10_000).toISOString())).toBe('Just now')
  })
})

describe('§9 date defaults', () => {
  it('§9 dates: English mm/dd/yy whatever the browser locale', () => {
    expect(formatDate('2026-03-04T15:05:00')).toBe('03/04/26')
    expect(formatDate(new Date(2026, 10, 22))).toBe('11/22/26')
    expect(formatDate('not a date')).toBe('')
    expect(DATE_FORMAT).toBe('mm/dd/yy')
    expect(DATE_LOCALE).toBe('en-US')
  })

  it('§9 dates: a timestamp tooltip is the mm/dd/yy date and the English time', () => {
    expect(formatDateTime('2026-03-04T15:05:00')).toBe('03/04/26, 3:05 PM')
    expect(formatDateTime('2026-12-31T00:30:00')).toBe('12/31/26, 12:30 AM')
  })

  it('§9 dates: a date in a sentence is written out in English', () => {
    expect(formatLongDate('2026-03-04T15:05:00')).toBe('March 4, 2026')
  })
})
