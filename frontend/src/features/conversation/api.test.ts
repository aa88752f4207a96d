import { describe, expect, it } from 'vitest'
import { createTestQueryClient, signInSession } from '@/test/render'
import { detailHandler, listItem, makeRequest, unreadCountHandler } from '@/test/requestFixtures'
import { server } from '@/test/server'
import { type RequestListItem, requestKeys, requestQuery, unreadCountQuery } from './api'

/** A request as the In Progress list carries it. */
function listed(id: number, name: string, unread: boolean): RequestListItem {
  return { ...listItem(makeRequest({ id, name, unread })), status: 'in_progress' }
}

describe('the request query and unread replies', () => {
  it('unread replies: opening a thread drops its mark from the cached lists at once and asks the count again', async () => {
    signInSession()
    let unread = 2
    server.use(
      unreadCountHandler(() => unread),
      detailHandler(() => {
        unread = 1 // the server marks the opened thread seen
        return makeRequest({ id: 7, name: 'Find a plumber', status: 'in_progress' })
      }),
    )
    const client = createTestQueryClient()
    const plumber = listed(7, 'Find a plumber', true)
    const trip = listed(8, 'Plan a trip', true)
    client.setQueryData(requestKeys.list('in_progress'), [plumber, trip])
    await client.fetchQuery(unreadCountQuery)
    const untouched = client.getQueryData(requestKeys.list('open'))

    await client.fetchQuery(requestQuery(7))

    const inProgress = client.getQueryData<RequestListItem[]>(requestKeys.list('in_progress'))
    expect(inProgress?.map((r) => [r.id, r.unread])).toEqual([
      [7, false],
      [8, true],
    ])
    expect(inProgress?.[1]).toBe(trip)
    expect(client.getQueryData(requestKeys.list('open'))).toBe(untouched)
    expect(client.getQueryState(requestKeys.unreadCount())?.isInvalidated).toBe(true)
    expect(await client.fetchQuery(unreadCountQuery)).toBe(1)
  })

  it('unread replies: with nothing unread, opening a thread (and its polls) leaves the count alone', async () => {
    signInSession()
    const counts = { count: 0 }
    server.use(
      unreadCountHandler(() => 0, counts),
      detailHandler(() => makeRequest({ id: 7 })),
    )
    const client = createTestQueryClient()
    client.setQueryData(requestKeys.list('open'), [listed(7, 'Book a vet', false)])
    await client.fetchQuery(unreadCountQuery)
    await client.fetchQuery(requestQuery(7))
    expect(client.getQueryState(requestKeys.unreadCount())?.isInvalidated).toBe(false)
    expect(counts.count).toBe(1)
  })
})
