import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { LIVE_POLL_MS } from '@/lib/live'
import { FakeEventSource, installFakeEventSource, STREAM_START } from '@/test/fakeEventSource'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { detailHandler, makeMessage, makeRequest } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import { useRequestsLive } from './live'
import Request from './routes/Request'

function setup() {
  const queryClient = new QueryClient()
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return { invalidate, ...renderHook(() => useRequestsLive(), { wrapper }) }
}

describe('issue 5 live updates on the employee side', () => {
  beforeEach(() => {
    server.use(installFakeEventSource())
  })
  afterEach(() => vi.unstubAllGlobals())

  it('a concierge reply refetches that request, the request lists and the unread count', async () => {
    const { result, invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    const source = FakeEventSource.instances[0]
    // On the API's origin, which may not be the page's (spec §5 VITE_API_BASE_URL).
    expect(source.url).toBe(apiUrl('/api/v1/events?ticket=t1'))
    act(() => source.onopen?.())
    expect(result.current).toBe('open')
    act(() =>
      source.onmessage?.({ data: JSON.stringify({ type: 'message.created', request_id: 7 }) }),
    )
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests', 'detail', 7] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests', 'list'] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests', 'unread-count'] })
  })

  it('unread replies: a thread opened in another tab refetches the lists and the unread count, not the thread', async () => {
    const { invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    const source = FakeEventSource.instances[0]
    act(() => source.onopen?.())
    invalidate.mockClear()
    source.send({ type: 'request.seen', request_id: 7, status: 'in_progress' })
    expect(invalidate.mock.calls).toEqual([
      [{ queryKey: ['requests', 'list'] }],
      [{ queryKey: ['requests', 'unread-count'] }],
    ])
  })

  it('issue 8: the stream waits for an idle moment, and its first open catches up once', async () => {
    let tickets = 0
    server.use(
      http.post(apiUrl('/api/v1/events/ticket'), () => {
        tickets += 1
        return HttpResponse.json({ ticket: 't1', expires_in: 60, url: '/api/v1/events?ticket=t1' })
      }),
    )
    const { result, invalidate } = setup()
    // Nothing of the stream's starts while the screen shows and loads.
    expect(tickets).toBe(0)
    expect(result.current).toBe('connecting')
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    expect(tickets).toBe(1)
    act(() => FakeEventSource.instances[0].onopen?.())
    expect(invalidate).toHaveBeenCalledTimes(1)
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests'] })
    act(() =>
      FakeEventSource.instances[0].onmessage?.({
        data: JSON.stringify({ type: 'request.updated', request_id: 3 }),
      }),
    )
    // Later events refetch what they touch (the lists, the unread count, the request), with no
    // further catch-up.
    expect(invalidate).toHaveBeenCalledTimes(4)
  })

  it('a dropped stream polls until it reconnects with a new ticket', async () => {
    const { result, invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    vi.useFakeTimers()
    act(() => FakeEventSource.instances[0].onerror?.())
    expect(result.current).toBe('down')
    expect(FakeEventSource.instances[0].closed).toBe(true)
    invalidate.mockClear()
    act(() => vi.advanceTimersByTime(LIVE_POLL_MS))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests'] })
    vi.useRealTimers()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2))
  })

  it('issue 11: back after a drop, the stream catches up on everything it may have missed', async () => {
    const { result, invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    act(() => FakeEventSource.instances[0].onopen?.())
    invalidate.mockClear()
    act(() => FakeEventSource.instances[0].onerror?.())
    expect(result.current).toBe('down')
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 5000 })
    expect(invalidate).not.toHaveBeenCalled()
    act(() => FakeEventSource.instances[1].onopen?.())
    expect(result.current).toBe('open')
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests'] })
  })
})

/** The open Request screen under the employee side's live updates, as the app layout runs it. */
function LiveRequest() {
  useRequestsLive()
  return <Request />
}

describe('issue 11 the employee side resynchronises after a reconnect', () => {
  beforeEach(() => {
    signInSession()
    server.use(installFakeEventSource())
  })
  afterEach(() => vi.unstubAllGlobals())

  it('issue 11: a reply sent while the stream was down shows once it reconnects', async () => {
    let request = makeRequest({ id: 7, name: 'Find a dog walker' })
    const calls = { count: 0 }
    server.use(detailHandler(() => request, calls))
    renderWithProviders(<LiveRequest />, {
      route: '/requests/7',
      path: '/requests/:requestId',
      user: makeUser(),
    })
    await screen.findByRole('heading', { level: 1, name: 'Find a dog walker' })
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    const loaded = calls.count
    // The stream opened after the screen had loaded: its first open catches up once.
    act(() => FakeEventSource.instances[0].onopen?.())
    await waitFor(() => expect(calls.count).toBe(loaded + 1))
    const before = calls.count

    // The stream drops; the concierge replies meanwhile, and that event is never delivered.
    act(() => FakeEventSource.instances[0].onerror?.())
    request = {
      ...request,
      messages: [makeMessage({ id: 31, body_html: 'I found three walkers near you.' })],
    }
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2), { timeout: 5000 })
    expect(screen.queryByText('I found three walkers near you.')).not.toBeInTheDocument()

    act(() => FakeEventSource.instances[1].onopen?.())
    expect(await screen.findByText('I found three walkers near you.')).toBeInTheDocument()
    expect(calls.count).toBe(before + 1)
  })
})
