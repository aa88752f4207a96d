/** The Requests screen's data, asked for as the navigation starts (see signedInLoader). */
import { signedInLoader, warmQuery } from '@/lib/queryClient'
import { type RequestBucket, requestListQuery } from '@/lib/requests/api'

export const REQUEST_BUCKETS: RequestBucket[] = ['in_progress', 'open', 'completed']

export const loader = signedInLoader(() =>
  REQUEST_BUCKETS.map((bucket) => warmQuery(requestListQuery(bucket))),
)
