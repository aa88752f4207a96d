import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import { deskKeys } from './api'
import { applyDeskEvent } from './live'

function invalidatedBy(event: Parameters<typeof applyDeskEvent>[1]) {
  const queryClient = new QueryClient()
  const keys = [deskKeys.queues(), deskKeys.detail(42), deskKeys.detail(7), deskKeys.ratings()]
  for (const key of keys) queryClient.setQueryData(key, {})
  applyDeskEvent(queryClient, event)
  return keys
    .filter((key) => queryClient.getQueryState(key)?.isInvalidated)
    .map((key) => JSON.stringify(key))
}

describe('desk live updates', () => {
  it('a rating or its comment refreshes that request and the ratings summary, not the queue', () => {
    expect(invalidatedBy({ type: 'rating.changed', request_id: 42 })).toEqual([
      JSON.stringify(deskKeys.detail(42)),
      JSON.stringify(deskKeys.ratings()),
    ])
  })

  it('a new message refreshes the queue and its request only', () => {
    expect(invalidatedBy({ type: 'message.created', request_id: 7 })).toEqual([
      JSON.stringify(deskKeys.queues()),
      JSON.stringify(deskKeys.detail(7)),
    ])
  })
})
