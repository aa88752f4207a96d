import type { RequestListItem } from '@/features/conversation'

type BucketResult = { data?: RequestListItem[]; dataUpdatedAt: number }

/**
 * The three lists (in progress, in queue, completed) as shown: a request that moved between
 * them while one list has been fetched again and the other not yet (a concierge's first reply
 * takes it from the queue to in progress) is shown once, where the latest answer puts it.
 */
export function listedOnce(results: readonly BucketResult[]): RequestListItem[][] {
  const newest = new Map<number, { at: number; bucket: number }>()
  results.forEach((result, bucket) => {
    for (const request of result.data ?? []) {
      const seen = newest.get(request.id)
      if (!seen || result.dataUpdatedAt > seen.at) {
        newest.set(request.id, { at: result.dataUpdatedAt, bucket })
      }
    }
  })
  return results.map((result, bucket) =>
    (result.data ?? []).filter((request) => newest.get(request.id)?.bucket === bucket),
  )
}
