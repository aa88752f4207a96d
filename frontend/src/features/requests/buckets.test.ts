import { describe, expect, it } from 'vitest'
import type { RequestListItem } from '@/features/conversation'
import { listedOnce } from './buckets'

const item = (id: number, status: string) => ({ id, status }) as unknown as RequestListItem

describe('§2 Requests: a request moving between lists is listed once', () => {
  it('keeps the request where the most recently fetched list puts it', () => {
    const inProgress = { data: [item(7, 'in_progress')], dataUpdatedAt: 2_000 }
    const staleQueue = { data: [item(7, 'open'), item(8, 'open')], dataUpdatedAt: 1_000 }
    const completed = { data: [item(9, 'closed')], dataUpdatedAt: 1_000 }
    expect(listedOnce([inProgress, staleQueue, completed])).toEqual([
      [item(7, 'in_progress')],
      [item(8, 'open')],
      [item(9, 'closed')],
    ])
  })

  it('leaves lists alone when no request is in two of them, and copes with a list not loaded', () => {
    const lists = [
      { data: [item(1, 'in_progress')], dataUpdatedAt: 1 },
      { data: undefined, dataUpdatedAt: 0 },
      { data: [item(2, 'closed')], dataUpdatedAt: 3 },
    ]
    expect(listedOnce(lists)).toEqual([[item(1, 'in_progress')], [], [item(2, 'closed')]])
  })
})
