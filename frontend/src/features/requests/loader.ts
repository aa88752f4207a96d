/** The Requests screen's data, asked for as the navigation starts (see signedInLoader). */

import { type RequestBucket, requestListQuery } from '@/features/conversation'
import { signedInLoader, warmQuery } from '@/lib/queryClient'

export const REQUEST_BUCKETS: RequestBucket[] = ['in_progress', 'open', 'completed']

export const loader = signedInLoader(() =>
  REQUEST_BUCKETS.map((bucket) => warmQuery(requestListQuery(bucket))),
)
