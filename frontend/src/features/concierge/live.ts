/**
 * Live updates for the concierge desk over the shared live-updates hook (`@/lib/live`). One
 * subscription for the whole desk, held by the ConciergeLayout: each event refetches what it
 * touches; while the stream is down the queue and the open request are polled instead.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { type LiveEvent, type LiveStatus, useLiveUpdates } from '@/lib/live'
import { deskKeys } from './api'

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
  if (event.type === 'rating.changed') {
    void queryClient.invalidateQueries({ queryKey: deskKeys.ratings() })
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
  return useLiveUpdates({
    onEvent: (event) => applyDeskEvent(queryClient, event),
    onPoll: () => {
      void queryClient.invalidateQueries({ queryKey: deskKeys.queues() })
      void queryClient.invalidateQueries({ queryKey: deskKeys.details() })
    },
  })
}
