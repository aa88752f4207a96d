import { screen, waitFor } from '@testing-library/react'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { makeMessage } from '@/test/requestFixtures'
import type { RequestMessage, ThreadPage } from '../api'
import { type NewestPage, useOlderMessages } from '../hooks/useOlderMessages'
import { LoadOlderMessages } from './ThreadParts'

const ROW_HEIGHT = 100

/** A thread in its own scrolling box: rows are ROW_HEIGHT tall (jsdom has no layout). */
function Thread({
  latest,
  fetchPage,
}: {
  latest: NewestPage
  fetchPage: (id: number, before: string) => Promise<ThreadPage>
}) {
  const older = useOlderMessages(latest, fetchPage)
  return (
    <div data-testid="scroller" style={{ overflowY: 'auto' }}>
      <LoadOlderMessages older={older} />
      <ol aria-label="Messages">
        {older.messages.map((message) => (
          <li key={message.id}>{message.body_html}</li>
        ))}
      </ol>
    </div>
  )
}

/** The thread, then its newest page refetched when 'Refetch' is pressed. */
function Refetching({
  first,
  second,
  fetchPage,
}: {
  first: NewestPage
  second: NewestPage
  fetchPage: (id: number, before: string) => Promise<ThreadPage>
}) {
  const [latest, setLatest] = useState(first)
  return (
    <>
      <button type="button" onClick={() => setLatest(second)}>
        Refetch
      </button>
      <Thread latest={latest} fetchPage={fetchPage} />
    </>
  )
}

function messages(from: number, to: number): RequestMessage[] {
  return Array.from({ length: to - from + 1 }, (_, i) =>
    makeMessage({ id: from + i, body_html: `Message ${from + i}` }),
  )
}

/** Messages 1..30 in pages of 10: the newest page 21..30, the cursor of a page is its first id. */
function pagedThread() {
  const fetchPage = vi.fn(async (_id: number, before: string): Promise<ThreadPage> => {
    const end = Number(before) - 1
    const start = Math.max(1, end - 9)
    return { messages: messages(start, end), older_cursor: start > 1 ? String(start) : null }
  })
  const latest: NewestPage = { id: 7, messages: messages(21, 30), older_cursor: '21' }
  return { fetchPage, latest }
}

function shownIds(): number[] {
  return screen
    .getAllByRole('listitem')
    .map((item) => Number(item.textContent?.replace('Message ', '')))
}

function withLayout(scroller: HTMLElement) {
  Object.defineProperty(scroller, 'clientHeight', { configurable: true, get: () => 500 })
  Object.defineProperty(scroller, 'scrollHeight', {
    configurable: true,
    get: () => scroller.querySelectorAll('li').length * ROW_HEIGHT,
  })
}

describe('Hardening 8: a paged thread loads older messages', () => {
  it('no button when the thread starts on the first page', () => {
    const { fetchPage } = pagedThread()
    renderWithProviders(
      <Thread
        latest={{ id: 7, messages: messages(1, 5), older_cursor: null }}
        fetchPage={fetchPage}
      />,
    )
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument()
    expect(screen.queryByText(/start of the conversation/)).not.toBeInTheDocument()
  })

  it('each click puts the page before the cursor in front, until the start, where focus lands', async () => {
    const { fetchPage, latest } = pagedThread()
    const { user } = renderWithProviders(<Thread latest={latest} fetchPage={fetchPage} />)
    expect(shownIds()).toEqual(range(21, 30))

    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await waitFor(() => expect(shownIds()).toEqual(range(11, 30)))
    expect(fetchPage).toHaveBeenLastCalledWith(7, '21')

    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await waitFor(() => expect(shownIds()).toEqual(range(1, 30)))
    expect(fetchPage).toHaveBeenLastCalledWith(7, '11')
    const start = screen.getByText('This is the start of the conversation.')
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument()
    expect(start.parentElement).toHaveFocus()
  })

  it('what was on screen stays in place: the scroll grows by the loaded page', async () => {
    const { fetchPage, latest } = pagedThread()
    const { user } = renderWithProviders(<Thread latest={latest} fetchPage={fetchPage} />)
    const scroller = screen.getByTestId('scroller')
    withLayout(scroller)
    scroller.scrollTop = 40

    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await waitFor(() => expect(shownIds()).toHaveLength(20))
    expect(scroller.scrollTop).toBe(40 + 10 * ROW_HEIGHT)
  })

  it('a refetched newest page (a new message) keeps the loaded older messages, once each', async () => {
    const { fetchPage, latest } = pagedThread()
    const refetched: NewestPage = { id: 7, messages: messages(22, 31), older_cursor: '22' }
    const { user } = renderWithProviders(
      <Refetching first={latest} second={refetched} fetchPage={fetchPage} />,
    )
    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await waitFor(() => expect(shownIds()).toEqual(range(11, 30)))

    await user.click(screen.getByRole('button', { name: 'Refetch' }))
    expect(shownIds()).toEqual(range(11, 31))
    expect(screen.getByRole('button', { name: 'Load older messages' })).toBeInTheDocument()
  })

  it('a failed page says so and the button stays for another try', async () => {
    const { latest } = pagedThread()
    const failing = vi.fn(async () => {
      throw new Error('We couldn’t load older messages.')
    })
    const { user } = renderWithProviders(<Thread latest={latest} fetchPage={failing} />)
    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('We couldn’t load older messages.')
    expect(screen.getByRole('button', { name: 'Load older messages' })).toBeEnabled()
    expect(shownIds()).toEqual(range(21, 30))
  })
})

function range(from: number, to: number): number[] {
  return Array.from({ length: to - from + 1 }, (_, i) => from + i)
}
