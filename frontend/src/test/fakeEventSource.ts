/**
 * A stand-in for the browser's EventSource (jsdom has none): each stream the app opens is kept in
 * `instances`, and a test opens it, sends it events or drops it by calling its handlers.
 */
import { act } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { vi } from 'vitest'
import { LIVE_START_DELAY_MS } from '@/lib/live'
import { apiUrl } from './server'

/** The stream opens a moment after the screen has shown (lib/live.ts). */
export const STREAM_START = { timeout: LIVE_START_DELAY_MS + 2_000 }

export class FakeEventSource {
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
  /** Delivers a live event, as the server's `data:` line. */
  send(event: { type: string; request_id?: number; status?: string }) {
    act(() => this.onmessage?.({ data: JSON.stringify(event) }))
  }
}

/** Installs the fake in place of EventSource, with a stream ticket the server grants. */
export function installFakeEventSource() {
  FakeEventSource.instances = []
  vi.stubGlobal('EventSource', FakeEventSource)
  return http.post(apiUrl('/api/v1/events/ticket'), () =>
    HttpResponse.json({ ticket: 't1', expires_in: 60, url: '/api/v1/events?ticket=t1' }),
  )
}
