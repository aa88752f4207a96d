/**
 * The live event stream (Server-Sent Events). EventSource cannot send the Authorization header,
 * so each connection starts with a short-lived ticket; a dropped stream reconnects with a fresh
 * ticket and backs off while the server is unreachable.
 */
import { api } from '@/api/client'
import { config } from '@/lib/config'

export interface LiveEvent {
  type: string
  request_id?: number
  status?: string
  message_id?: number
  note_id?: number
}

export type LiveStatus = 'connecting' | 'open' | 'down'

const MAX_BACKOFF_MS = 30_000

export function subscribeToEvents(
  onEvent: (event: LiveEvent) => void,
  onStatus: (status: LiveStatus) => void = () => {},
): () => void {
  let source: EventSource | null = null
  let retryTimer: ReturnType<typeof setTimeout> | undefined
  let attempts = 0
  let stopped = false

  const scheduleReconnect = () => {
    if (stopped) return
    onStatus('down')
    const delay = Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS)
    attempts += 1
    retryTimer = setTimeout(connect, delay)
  }

  async function connect() {
    if (stopped) return
    onStatus('connecting')
    const { data } = await api.POST('/api/v1/events/ticket').catch(() => ({ data: undefined }))
    if (stopped) return
    if (!data || typeof EventSource === 'undefined') {
      scheduleReconnect()
      return
    }
    // The ticket's address is relative to the API, which may live on another origin (spec §5).
    source = new EventSource(new URL(data.url, `${config.apiBaseUrl}/`).href)
    source.onopen = () => {
      attempts = 0
      onStatus('open')
    }
    source.onmessage = (message) => {
      try {
        onEvent(JSON.parse(message.data) as LiveEvent)
      } catch {
        // A malformed event is ignored; the next refetch corrects any missed state.
      }
    }
    source.onerror = () => {
      source?.close()
      source = null
      scheduleReconnect()
    }
  }

  void connect()
  return () => {
    stopped = true
    clearTimeout(retryTimer)
    source?.close()
  }
}
