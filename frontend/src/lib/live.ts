/**
 * Live updates over the shared event stream (`./events`), one hook for the employee side and the
 * concierge desk: each event goes to `onEvent`; after a drop the stream comes back without the
 * events it missed, so the first reopen after a drop hands `onEvent` a `resync`; while the stream
 * is down `onPoll` runs every `LIVE_POLL_MS` instead.
 */
import { useEffect, useRef, useState } from 'react'
import { type LiveEvent, type LiveStatus, subscribeToEvents } from './events'

export type { LiveEvent, LiveStatus }

export const LIVE_POLL_MS = 10_000

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
    let wasDown = false
    return subscribeToEvents(
      (event) => latest.current.onEvent(event),
      (next) => {
        setStatus(next)
        if (next === 'down') wasDown = true
        if (next === 'open' && wasDown) {
          wasDown = false
          latest.current.onEvent(RESYNC)
        }
      },
    )
  }, [])

  useEffect(() => {
    if (status !== 'down') return
    const timer = setInterval(() => latest.current.onPoll(), LIVE_POLL_MS)
    return () => clearInterval(timer)
  }, [status])

  return status
}
