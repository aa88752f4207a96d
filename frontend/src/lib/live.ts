/**
 * Live updates over the shared event stream (`./events`), one hook for the employee side and the
 * concierge desk: each event goes to `onEvent`; while the stream is down `onPoll` runs every
 * `LIVE_POLL_MS` instead.
 *
 * The stream opens a moment after the screen has shown, once the browser is idle: its ticket
 * and its connection, which it holds for good (one of the browser's six on HTTP/1.1), never
 * compete with what the screen loads first. It carries only what happens after it opens, so its
 * first open, and the first reopen after a drop, hand `onEvent` a `resync`: what the screen
 * loaded before may have missed an event.
 */
import { useEffect, useRef, useState } from 'react'
import { type LiveEvent, type LiveStatus, subscribeToEvents } from './events'
import { whenIdleAfter } from './whenIdle'

export type { LiveEvent, LiveStatus }

export const LIVE_POLL_MS = 10_000

/** How long after the screen has shown the stream opens (then when the browser is idle). */
export const LIVE_START_DELAY_MS = 1_000

export const RESYNC: LiveEvent = { type: 'resync' }

export interface LiveHandlers {
  /** An event from the stream, or `resync` when anything may have been missed. */
  onEvent: (event: LiveEvent) => void
  /** Refetch what the screen shows, while the stream is down. */
  onPoll: () => void
}

export function useLiveUpdates(handlers: LiveHandlers): LiveStatus {
  const [status, setStatus] = useState<LiveStatus>('connecting')
  // The latest handlers, without resubscribing (a new ticket) when they change.
  const latest = useRef(handlers)
  latest.current = handlers

  useEffect(() => {
    let missedSome = true
    let unsubscribe = () => {}
    const start = () => {
      unsubscribe = subscribeToEvents(
        (event) => latest.current.onEvent(event),
        (next) => {
          setStatus(next)
          if (next === 'down') missedSome = true
          if (next === 'open' && missedSome) {
            missedSome = false
            latest.current.onEvent(RESYNC)
          }
        },
      )
    }
    const cancelStart = whenIdleAfter(LIVE_START_DELAY_MS, start)
    return () => {
      cancelStart()
      unsubscribe()
    }
  }, [])

  useEffect(() => {
    if (status !== 'down') return
    const timer = setInterval(() => latest.current.onPoll(), LIVE_POLL_MS)
    return () => clearInterval(timer)
  }, [status])

  return status
}
