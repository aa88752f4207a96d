/** "Seen by": who on the concierge side opened one of my requests (issue 27, access
 * transparency), from the audit trail. */

import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type SeenBy = Schemas['SeenByOut']

const ROLE_LABELS: Record<string, string> = {
  concierge: 'Concierge',
  staff: 'Support',
  superuser: 'Support',
}

export const roleLabel = (role: string) => ROLE_LABELS[role] ?? 'Support'

// Openings are written at most once per person per ten minutes: a minute is fresh enough.
export const SEEN_BY_POLL_MS = 60_000

export function seenByQuery(requestId: number) {
  return queryOptions({
    queryKey: ['request', requestId, 'seen_by'] as const,
    queryFn: async (): Promise<SeenBy[]> => {
      const { data, error, response } = await api.GET('/api/v1/requests/{request_id}/seen_by', {
        params: { path: { request_id: requestId } },
      })
      if (!data) throw new ApiError(errorMessage(error, response), response.status)
      return data.seen_by
    },
    refetchInterval: SEEN_BY_POLL_MS,
  })
}
