/**
 * Live updates for the concierge desk over the shared event stream (`@/lib/events`: ticket →
 * EventSource, a fresh ticket and backoff on every reconnect). One subscription for the whole
 * desk, held by the ConciergeLayout: each event refetches what it touches; while the stream is
 * down the queue and the open request are polled every 10 seconds instead.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { type LiveEvent, type LiveStatus, subscribeToEvents } from '@/lib/events'
import { deskKeys } from './api'

export const DESK_POLL_MS = 10_000

/** Event types that change what the queue shows. */
const QUEUE_EVENTS = new Set(['request.created', 'request.updated', 'message.created'])

export function applyDeskEvent(queryClient: QueryClient, event: LiveEvent): void {
  if (event.type === 'resync') {
    void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
    void queryClient.invalidateQueries({ queryKey: deskKeys.details() })
    void queryClient.invalidateQueries({ queryKey: ['concierge', 'presence'] })
    return
  }
  const id = event.request_id
  if (QUEUE_EVENTS.has(event.type)) {
    void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
  }
  if (id === undefined) return
  if (event.type === 'presence.updated') {
    // Only the viewer list changed: one heartbeat answers it.
    void queryClient.invalidateQueries({ queryKey: deskKeys.presence(id) })
    return
  }
  // An open request view refetches (inactive cached requests are refetched when next shown).
  void queryClient.invalidateQueries({ queryKey: deskKeys.detail(id) })
}

export function useConciergeLive(): LiveStatus {
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<LiveStatus>('connecting')

  useEffect(() => {
    let wasDown = false
    return subscribeToEvents(
      (event) => applyDeskEvent(queryClient, event),
      (next) => {
        setStatus(next)
        if (next === 'down') wasDown = true
        // Back after a drop: events are not replayed, so catch up on what was missed.
        if (next === 'open' && wasDown) {
          wasDown = false
          applyDeskEvent(queryClient, { type: 'resync' })
        }
      },
    )
  }, [queryClient])

  useEffect(() => {
    if (status !== 'down') return
    const timer = setInterval(() => {
      void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
      void queryClient.invalidateQueries({ queryKey: deskKeys.details() })
    }, DESK_POLL_MS)
    return () => clearInterval(timer)
  }, [status, queryClient])

  return status
}
