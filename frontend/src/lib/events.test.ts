import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

const post = vi.fn()
vi.mock('@/api/client', () => ({ api: { POST: (...args: unknown[]) => post(...args) } }))

import { type LiveStatus, subscribeToEvents } from './events'

class FakeEventSource {
  static opened: FakeEventSource[] = []
  onopen: (() => void) | null = null
  onmessage: ((message: { data: string }) => void) | null = null
  onerror: (() => void) | null = null
  closed = false
  constructor(readonly url: string) {
    FakeEventSource.opened.push(this)
  }
  close() {
    this.closed = true
  }
}

let online = true

function goOnline(value: boolean) {
  online = value
  window.dispatchEvent(new Event(value ? 'online' : 'offline'))
}

async function settle() {
  await vi.waitFor(() => expect(post).toHaveBeenCalled())
  await Promise.resolve()
}

describe('live event stream and the network (ARCHITECTURE: live updates, falling back to polling)', () => {
  beforeEach(() => {
    online = true
    FakeEventSource.opened = []
    post.mockReset()
    post.mockResolvedValue({ data: { url: '/api/v1/events/stream?ticket=t' } })
    vi.stubGlobal('EventSource', FakeEventSource)
    vi.spyOn(window.navigator, 'onLine', 'get').mockImplementation(() => online)
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('going offline marks an open stream down and closes it; back online it opens again at once', async () => {
    const statuses: LiveStatus[] = []
    const stop = subscribeToEvents(
      () => {},
      (status) => statuses.push(status),
    )
    await settle()
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    FakeEventSource.opened[0].onopen?.()
    expect(statuses.at(-1)).toBe('open')

    goOnline(false)
    expect(statuses.at(-1)).toBe('down')
    expect(FakeEventSource.opened[0].closed).toBe(true)

    goOnline(true)
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(2))
    expect(post).toHaveBeenCalledTimes(2)
    FakeEventSource.opened[1].onopen?.()
    expect(statuses.at(-1)).toBe('open')
    stop()
    expect(FakeEventSource.opened[1].closed).toBe(true)
  })

  it('a browser offline from the start asks for no ticket until it is online', async () => {
    online = false
    const statuses: LiveStatus[] = []
    const stop = subscribeToEvents(
      () => {},
      (status) => statuses.push(status),
    )
    expect(statuses).toEqual(['down'])
    expect(post).not.toHaveBeenCalled()

    goOnline(true)
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    expect(post).toHaveBeenCalledTimes(1)
    stop()
  })

  it('coming online while a ticket is being asked for opens one stream, not two', async () => {
    let answer: (value: unknown) => void = () => {}
    post.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)))
    const stop = subscribeToEvents(() => {})
    goOnline(true)
    answer({ data: { url: '/api/v1/events/stream?ticket=t' } })
    await vi.waitFor(() => expect(FakeEventSource.opened).toHaveLength(1))
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(FakeEventSource.opened).toHaveLength(1)
    expect(post).toHaveBeenCalledTimes(1)
    stop()
  })
})
