import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { act, renderHook, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import type { ReactNode } from 'react'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { apiUrl, server } from '@/test/server'
import { FALLBACK_POLL_MS, useLiveUpdates } from './useLiveUpdates'

class FakeEventSource {
  static instances: FakeEventSource[] = []
  onopen: (() => void) | null = null
  onmessage: ((message: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  constructor(readonly url: string) {
    FakeEventSource.instances.push(this)
  }
  close() {
    this.closed = true
  }
}

function setup() {
  const queryClient = new QueryClient()
  const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  )
  return { invalidate, ...renderHook(() => useLiveUpdates(), { wrapper }) }
}

describe('issue 5 live updates on the employee side', () => {
  beforeEach(() => {
    FakeEventSource.instances = []
    vi.stubGlobal('EventSource', FakeEventSource)
    server.use(
      http.post(apiUrl('/api/v1/events/ticket'), () =>
        HttpResponse.json({ ticket: 't1', expires_in: 60, url: '/api/v1/events?ticket=t1' }),
      ),
    )
  })
  afterEach(() => vi.unstubAllGlobals())

  it('a concierge reply refetches that request and the request lists', async () => {
    const { result, invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1))
    const source = FakeEventSource.instances[0]
    expect(source.url).toBe('/api/v1/events?ticket=t1')
    act(() => source.onopen?.())
    expect(result.current).toBe('open')
    act(() =>
      source.onmessage?.({ data: JSON.stringify({ type: 'message.created', request_id: 7 }) }),
    )
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests', 'detail', 7] })
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests', 'list'] })
  })

  it('a dropped stream polls until it reconnects with a new ticket', async () => {
    const { result, invalidate } = setup()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1))
    vi.useFakeTimers()
    act(() => FakeEventSource.instances[0].onerror?.())
    expect(result.current).toBe('down')
    expect(FakeEventSource.instances[0].closed).toBe(true)
    invalidate.mockClear()
    act(() => vi.advanceTimersByTime(FALLBACK_POLL_MS))
    expect(invalidate).toHaveBeenCalledWith({ queryKey: ['requests'] })
    vi.useRealTimers()
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(2))
  })
})
