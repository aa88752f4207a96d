/**
 * Keeps the employee's requests fresh without a reload: a concierge's reply or status change
 * refetches the Request page, the Requests list and the Dashboard. While the stream is down the
 * same data is polled instead.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useState } from 'react'
import { requestKeys } from '@/features/requests/api/requests'
import { type LiveStatus, subscribeToEvents } from '@/lib/events'

export const FALLBACK_POLL_MS = 10_000

export function useLiveUpdates(): LiveStatus {
  const queryClient = useQueryClient()
  const [status, setStatus] = useState<LiveStatus>('connecting')

  useEffect(
    () =>
      subscribeToEvents((event) => {
        if (event.type === 'resync') {
          void queryClient.invalidateQueries({ queryKey: requestKeys.all })
          return
        }
        if (event.request_id !== undefined) {
          void queryClient.invalidateQueries({ queryKey: requestKeys.lists() })
          void queryClient.invalidateQueries({ queryKey: requestKeys.detail(event.request_id) })
        }
      }, setStatus),
    [queryClient],
  )

  useEffect(() => {
    if (status !== 'down') return
    const timer = setInterval(
      () => void queryClient.invalidateQueries({ queryKey: requestKeys.all }),
      FALLBACK_POLL_MS,
    )
    return () => clearInterval(timer)
  }, [status, queryClient])

  return status
}
