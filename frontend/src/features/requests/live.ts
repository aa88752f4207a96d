/**
 * Keeps the employee's requests fresh without a reload: a concierge's reply or status change
 * refetches the Request page, the Requests list, the Dashboard and the unread count; a thread
 * opened in another tab (`request.seen`) refetches the lists and the count; a reconnect after a
 * drop, and every poll while the stream is down, refetch them all.
 */
import { type QueryClient, useQueryClient } from '@tanstack/react-query'
import { requestKeys } from '@/features/conversation'
import { type LiveEvent, type LiveStatus, useLiveUpdates } from '@/lib/live'

export function applyRequestEvent(queryClient: QueryClient, event: LiveEvent): void {
  if (event.type === 'resync') {
    void queryClient.invalidateQueries({ queryKey: requestKeys.all })
    return
  }
  if (event.request_id === undefined) return
  void queryClient.invalidateQueries({ queryKey: requestKeys.lists() })
  void queryClient.invalidateQueries({ queryKey: requestKeys.unreadCount() })
  // Opening the thread changed what it has been seen up to, not what it shows.
  if (event.type === 'request.seen') return
  void queryClient.invalidateQueries({ queryKey: requestKeys.detail(event.request_id) })
}

export function useRequestsLive(): LiveStatus {
  const queryClient = useQueryClient()
  return useLiveUpdates({
    onEvent: (event) => applyRequestEvent(queryClient, event),
    onPoll: () => void queryClient.invalidateQueries({ queryKey: requestKeys.all }),
  })
}
