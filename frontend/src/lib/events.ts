/**
 * The live event stream (Server-Sent Events). EventSource cannot send the Authorization header,
 * so each connection starts with a short-lived ticket; a dropped stream reconnects with a fresh
 * ticket and backs off while the server is unreachable. While the browser is offline the stream
 * is down (a connection that lost its network can look open for minutes) and waits: it opens
 * again as soon as the browser is back online.
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
  let askingTicket = false

  const offline = () => typeof navigator !== 'undefined' && navigator.onLine === false

  const close = () => {
    if (!source) return
    source.onerror = null
    source.close()
    source = null
  }

  const scheduleReconnect = () => {
    if (stopped) return
    onStatus('down')
    if (offline()) return // `online` reconnects
    const delay = Math.min(1000 * 2 ** attempts, MAX_BACKOFF_MS)
    attempts += 1
    retryTimer = setTimeout(connect, delay)
  }

  async function connect() {
    if (stopped) return
    if (offline()) {
      onStatus('down')
      return
    }
    onStatus('connecting')
    askingTicket = true
    const { data } = await api.POST('/api/v1/events/ticket').catch(() => ({ data: undefined }))
    askingTicket = false
    if (stopped) return
    if (offline()) {
      onStatus('down')
      return
    }
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
      close()
      scheduleReconnect()
    }
  }

  const wentOffline = () => {
    clearTimeout(retryTimer)
    close()
    onStatus('down')
  }
  const cameOnline = () => {
    if (source || askingTicket) return
    clearTimeout(retryTimer)
    attempts = 0
    void connect()
  }
  window.addEventListener('offline', wentOffline)
  window.addEventListener('online', cameOnline)

  void connect()
  return () => {
    stopped = true
    clearTimeout(retryTimer)
    window.removeEventListener('offline', wentOffline)
    window.removeEventListener('online', cameOnline)
    close()
  }
}
