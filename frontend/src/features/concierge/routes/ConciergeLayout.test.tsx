import { act, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { LiveEvent, LiveStatus } from '@/lib/events'
import { LIVE_POLL_MS, LIVE_START_DELAY_MS } from '@/lib/live'
import { session } from '@/lib/session'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import {
  conciergesHandler,
  makeConcierge,
  makeDeskRequest,
  makeQueue,
  makeQueueItem,
  SAM,
} from '../test/fixtures'
import ConciergeLayout from './ConciergeLayout'
import DeskRequest from './DeskRequest'
import Queue from './Queue'

/** The shared event stream, replaced by a handle the test drives. */
const stream = vi.hoisted(() => ({
  onEvent: null as null | ((event: LiveEvent) => void),
  onStatus: null as null | ((status: LiveStatus) => void),
  unsubscribed: 0,
}))

vi.mock('@/lib/events', () => ({
  subscribeToEvents: (onEvent: (event: LiveEvent) => void, onStatus: (s: LiveStatus) => void) => {
    stream.onEvent = onEvent
    stream.onStatus = onStatus
    onStatus('connecting')
    return () => {
      stream.unsubscribed += 1
    }
  },
}))

function emit(event: LiveEvent) {
  act(() => stream.onEvent?.(event))
}

function setStatus(status: LiveStatus) {
  act(() => stream.onStatus?.(status))
}

/** The desk subscribes a moment after it has shown; the stream's first open resyncs what loaded before it. */
async function openStream() {
  await waitFor(() => expect(stream.onStatus).not.toBeNull(), {
    timeout: LIVE_START_DELAY_MS + 2_000,
  })
  setStatus('open')
}

function renderDesk(route = '/concierge') {
  return renderWithProviders(<ConciergeLayout />, {
    route,
    user: makeConcierge(),
    routes: [
      { path: '/concierge', element: <Queue /> },
      { path: '/concierge/requests/:requestId', element: <DeskRequest /> },
    ],
  })
}

function countingQueue(items = [makeQueueItem()]) {
  const calls = { count: 0 }
  server.use(
    http.get(apiUrl('/api/v1/concierge/requests'), () => {
      calls.count += 1
      return HttpResponse.json(makeQueue(items))
    }),
  )
  return calls
}

beforeEach(() => {
  signInSession()
  stream.onEvent = null
  stream.onStatus = null
  stream.unsubscribed = 0
})
afterEach(() => vi.useRealTimers())

describe('issue 5 concierge layout', () => {
  it("issue 5 layout: a top bar with 'Concierge desk', the concierge's name and Sign out", async () => {
    countingQueue()
    let signedOut = false
    server.use(
      http.delete(apiUrl('/api/v1/users/sign_out'), () => {
        signedOut = true
        return new HttpResponse(null, { status: 204 })
      }),
    )
    const { user, router } = renderDesk()
    const bar = within(screen.getByRole('navigation', { name: 'Concierge desk' }))
    expect(bar.getByRole('link', { name: 'Concierge desk: the queue' })).toHaveAttribute(
      'href',
      '/concierge',
    )
    expect(bar.getByText('Concierge desk')).toBeInTheDocument()
    expect(bar.getAllByText('Alex Rivera').length).toBeGreaterThan(0)
    await user.click(bar.getByRole('button', { name: 'Sign out' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect(signedOut).toBe(true)
    expect(session.isAuthenticated()).toBe(false)
  })
})

describe('issue 5 live', () => {
  it('issue 5 live: a new request or message refetches the queue without a reload', async () => {
    const calls = countingQueue()
    renderDesk()
    await screen.findByRole('table', { name: 'Requests' })
    const loaded = calls.count
    await openStream()
    await waitFor(() => expect(calls.count).toBe(loaded + 1))
    const before = calls.count
    emit({ type: 'request.created', request_id: 202 })
    await waitFor(() => expect(calls.count).toBe(before + 1))
    emit({ type: 'message.created', request_id: 202, message_id: 9 })
    await waitFor(() => expect(calls.count).toBe(before + 2))
    emit({ type: 'request.updated', request_id: 202, status: 'in_progress' })
    await waitFor(() => expect(calls.count).toBe(before + 3))
    emit({ type: 'resync' })
    await waitFor(() => expect(calls.count).toBe(before + 4))
  })

  it('issue 5 live: the status shows Live, and while the stream is down the queue is polled every 10 s', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const calls = countingQueue()
    renderDesk()
    await screen.findByRole('table', { name: 'Requests' })
    const loaded = calls.count
    await openStream()
    await waitFor(() => expect(calls.count).toBe(loaded + 1))
    expect(document.querySelector('[data-live]')).toHaveAttribute('data-live', 'open')
    expect(screen.getByText('Live')).toBeInTheDocument()

    setStatus('down')
    expect(screen.getByText('Reconnecting · refreshing every 10 s')).toBeInTheDocument()
    const before = calls.count
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIVE_POLL_MS + 50)
    })
    await waitFor(() => expect(calls.count).toBe(before + 1))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIVE_POLL_MS)
    })
    await waitFor(() => expect(calls.count).toBe(before + 2))

    // Back up: one catch-up refetch, then no more polling.
    setStatus('connecting')
    setStatus('open')
    await waitFor(() => expect(calls.count).toBe(before + 3))
    await act(async () => {
      await vi.advanceTimersByTimeAsync(LIVE_POLL_MS * 2)
    })
    expect(calls.count).toBe(before + 3)
  })

  it('issue 5 live: events for the open request refetch it; presence.updated asks who else is here', async () => {
    let request = makeDeskRequest()
    let detailCalls = 0
    const presence: string[] = []
    let viewers: { id: number; full_name: string }[] = []
    server.use(
      conciergesHandler(),
      http.get(apiUrl('/api/v1/concierge/requests/:id'), () => {
        detailCalls += 1
        return HttpResponse.json({ request })
      }),
      http.post(apiUrl('/api/v1/concierge/requests/:id/presence'), () => {
        presence.push('POST')
        return HttpResponse.json({ viewers })
      }),
      http.delete(apiUrl('/api/v1/concierge/requests/:id/presence'), () => {
        presence.push('DELETE')
        return HttpResponse.json({ viewers: [] })
      }),
      http.get(apiUrl('/api/v1/concierge/requests'), () => HttpResponse.json(makeQueue([]))),
    )
    renderDesk('/concierge/requests/101')
    await screen.findByRole('heading', { level: 1, name: 'Find a dog walker' })
    const loaded = detailCalls
    await openStream()
    await waitFor(() => expect(detailCalls).toBe(loaded + 1))

    request = {
      ...request,
      messages: [
        ...request.messages,
        {
          id: 5,
          body_html: 'Also, he pulls on the lead',
          source: 'user',
          source_name: 'Jane Doe',
          external_created_at: new Date().toISOString(),
          reopened_request: false,
          by_email: false,
          attachment_keys: [],
          attachments: [],
        },
      ],
    }
    emit({ type: 'message.created', request_id: 101, message_id: 5 })
    expect(await screen.findByText('Also, he pulls on the lead')).toBeInTheDocument()

    // Another request's event leaves this one alone.
    const after = detailCalls
    emit({ type: 'note.created', request_id: 555, note_id: 1 })
    request = {
      ...request,
      notes: [
        ...request.notes,
        { id: 8, body: 'Vet booked', author: null, created_at: new Date().toISOString() },
      ],
    }
    emit({ type: 'note.created', request_id: 101, note_id: 8 })
    expect(await screen.findByText('Vet booked')).toBeInTheDocument()
    expect(detailCalls).toBe(after + 1)

    viewers = [{ id: SAM.id, full_name: SAM.full_name }]
    emit({ type: 'presence.updated', request_id: 101 })
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Presence' })).toHaveTextContent(
        'Also viewing: Sam Lee',
      ),
    )
    expect(presence).toContain('POST')
    expect(detailCalls).toBe(after + 1)
  })
})
