import { describe, expect, it } from 'vitest'
import {
  DATE_FORMAT,
  DATE_LOCALE,
  formatDate,
  formatLongDate,
  formatWhen,
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

  it('§9 dates: a date in a sentence is written out in English', () => {
    expect(formatLongDate('2026-03-04T15:05:00')).toBe('March 4, 2026')
  })
})

describe("issue 29 'Time, everywhere the same': one way to show a point in time", () => {
  // Local times (the machine's own zone, whatever it is) unless a zone is named.
  const now = new Date(2026, 10, 25, 9, 15) // Wed, Nov 25, 2026, 9:15 AM

  it("issue 29 time: today, tomorrow and yesterday read 'today 4:00 PM', 'tomorrow 9:00 AM'", () => {
    expect(formatWhen(new Date(2026, 10, 25, 16, 0), { now })).toBe('today 4:00 PM')
    expect(formatWhen(new Date(2026, 10, 26, 9, 0), { now })).toBe('tomorrow 9:00 AM')
    expect(formatWhen(new Date(2026, 10, 24, 18, 30), { now })).toBe('yesterday 6:30 PM')
  })

  it("issue 29 time: another day is 'Mon, Nov 30, 9:00 AM', in English 12-hour time", () => {
    expect(formatWhen(new Date(2026, 10, 30, 9, 0), { now })).toBe('Mon, Nov 30, 9:00 AM')
    expect(formatWhen(new Date(2026, 10, 23, 21, 5), { now })).toBe('Mon, Nov 23, 9:05 PM')
    expect(formatWhen(new Date(2026, 0, 2, 12, 0), { now })).toBe('Fri, Jan 2, 12:00 PM')
  })

  it('issue 29 time: the year is added when it is not the current one', () => {
    expect(formatWhen(new Date(2025, 10, 30, 9, 0), { now })).toBe('Sun, Nov 30, 2025, 9:00 AM')
    expect(formatWhen(new Date(2027, 0, 4, 9, 0), { now })).toBe('Mon, Jan 4, 2027, 9:00 AM')
    // Across New Year, tomorrow is still 'tomorrow'.
    const newYearsEve = new Date(2026, 11, 31, 22, 0)
    expect(formatWhen(new Date(2027, 0, 1, 10, 0), { now: newYearsEve })).toBe('tomorrow 10:00 AM')
    expect(formatWhen(new Date(2027, 0, 2, 10, 0), { now: newYearsEve })).toBe(
      'Sat, Jan 2, 2027, 10:00 AM',
    )
  })

  it('issue 29 time: midnight belongs to the day it begins', () => {
    const lateEvening = new Date(2026, 10, 25, 23, 59)
    expect(formatWhen(new Date(2026, 10, 26, 0, 0), { now: lateEvening })).toBe('tomorrow 12:00 AM')
    expect(formatWhen(new Date(2026, 10, 25, 0, 0), { now: lateEvening })).toBe('today 12:00 AM')
    const justAfterMidnight = new Date(2026, 10, 26, 0, 1)
    expect(formatWhen(new Date(2026, 10, 25, 23, 59), { now: justAfterMidnight })).toBe(
      'yesterday 11:59 PM',
    )
    expect(formatWhen(new Date(2026, 10, 27, 0, 0), { now: justAfterMidnight })).toBe(
      'tomorrow 12:00 AM',
    )
    expect(formatWhen(new Date(2026, 10, 28, 0, 0), { now: justAfterMidnight })).toBe(
      'Sat, Nov 28, 12:00 AM',
    )
  })

  it("issue 29 time: in the viewer's zone, so one moment reads differently in two zones", () => {
    const at = '2026-11-25T21:00:00Z'
    const moment = { now: '2026-11-25T14:00:00Z' }
    expect(formatWhen(at, { ...moment, timeZone: 'America/New_York' })).toBe('today 4:00 PM')
    expect(formatWhen(at, { ...moment, timeZone: 'Asia/Tokyo' })).toBe('tomorrow 6:00 AM')
    expect(formatWhen(at, { ...moment, timeZone: 'UTC' })).toBe('today 9:00 PM')
    expect(formatWhen(at, { now: Date.parse('2026-11-20T12:00:00Z'), timeZone: 'UTC' })).toBe(
      'Wed, Nov 25, 9:00 PM',
    )
  })

  it('issue 29 time: days are calendar days, also on the 25-hour day clocks go back', () => {
    // New York leaves daylight time on Sunday, November 1, 2026.
    const zone = { timeZone: 'America/New_York', now: new Date('2026-10-31T12:00:00-04:00') }
    expect(formatWhen('2026-11-01T23:30:00-05:00', zone)).toBe('tomorrow 11:30 PM')
    expect(formatWhen('2026-11-02T00:30:00-05:00', zone)).toBe('Mon, Nov 2, 12:30 AM')
  })

  it("issue 29 time: 'Today 4:00 PM' alone or at the start of a sentence; '' when unreadable", () => {
    expect(formatWhen(new Date(2026, 10, 25, 16, 0), { now, capitalize: true })).toBe(
      'Today 4:00 PM',
    )
    expect(formatWhen(new Date(2026, 10, 30, 9, 0), { now, capitalize: true })).toBe(
      'Mon, Nov 30, 9:00 AM',
    )
    expect(formatWhen('not a date', { now })).toBe('')
    expect(formatWhen(new Date(Date.now() + 60_000))).toMatch(
      /^(today|tomorrow) \d{1,2}:\d{2} [AP]M$/,
    )
  })
})
