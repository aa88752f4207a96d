/**
 * The hand-over of a page's first API requests, which the document starts as it arrives
 * (`src/early.ts`, see app/firstScreenRequests.ts) rather than once the app's code has
 * downloaded and run: the API client takes each answer over the first time the app asks for the
 * same address with the same session.
 */

/** An answer older than this is not handed over: the app asks again. */
const FRESH_MS = 10_000

/** The headers that name the session a request was made for. */
export type SessionHeaders = Record<string, string>

interface EarlyRequest {
  headers: SessionHeaders
  at: number
  response: Promise<Response>
}

const started = new Map<string, EarlyRequest>()
let closed = false

/** Whether early requests may still start: none has, and the app has asked for nothing yet. */
export function earlyRequestsOpen(): boolean {
  return !closed && started.size === 0
}

/** Starts a GET of `url` for the session of `headers`, to be handed over once. */
export function startEarlyRequest(url: string, headers: SessionHeaders): void {
  const response = fetch(url, { headers, credentials: 'same-origin' })
  // An early failure is the app's to retry; it must not surface as an unhandled rejection.
  response.catch(() => {})
  started.set(url, { headers, at: Date.now(), response })
}

function sameHeaders(request: Request, headers: SessionHeaders): boolean {
  const names = ['Authorization', 'mfa-token']
  return names.every((name) => (request.headers.get(name) ?? undefined) === headers[name])
}

/**
 * The answer to an early request for this GET, once, if it was made for the same session and
 * is still fresh; else null and the caller fetches. The first call closes early requests.
 */
export function takeEarlyResponse(request: Request): Promise<Response> | null {
  closed = true
  if (request.method !== 'GET') return null
  const early = started.get(request.url)
  if (!early) return null
  started.delete(request.url)
  if (Date.now() - early.at > FRESH_MS || !sameHeaders(request, early.headers)) return null
  // A failed early request is asked again, as the app would have asked in the first place.
  return early.response.catch(() => fetch(request))
}
