/**
 * Presence on a request: a heartbeat every 15 s while the view is open (a concierge stays
 * listed for 30 s after the last one), a leave when the view closes or the page unloads, and
 * the other concierges there now. A `presence.updated` event refetches it at once (live.ts).
 */
import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { deskKeys, type Person, presenceHeartbeat, presenceLeave } from '../api'

export const PRESENCE_HEARTBEAT_MS = 15_000

export function usePresence(
  requestId: number,
  /** The viewers the loaded request came with, and when it was fetched. */
  initial: { viewers: Person[]; updatedAt: number },
): Person[] {
  const presence = useQuery({
    queryKey: deskKeys.presence(requestId),
    queryFn: () => presenceHeartbeat(requestId),
    // Opening the request already counted as presence: the first heartbeat is due 15 s later.
    initialData: initial.viewers,
    initialDataUpdatedAt: initial.updatedAt,
    staleTime: PRESENCE_HEARTBEAT_MS - 1_000,
    refetchInterval: PRESENCE_HEARTBEAT_MS,
    refetchIntervalInBackground: true,
    refetchOnWindowFocus: false,
    retry: false,
  })

  useEffect(() => {
    const onPageHide = () => void presenceLeave(requestId, true)
    window.addEventListener('pagehide', onPageHide)
    return () => {
      window.removeEventListener('pagehide', onPageHide)
      void presenceLeave(requestId)
    }
  }, [requestId])

  // Whichever answer is newer: a heartbeat's or the request's own (refetched on events).
  if (initial.updatedAt > presence.dataUpdatedAt) return initial.viewers
  return presence.data
}
