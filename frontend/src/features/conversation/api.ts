/**
 * The requests calls (spec §7 'Requests and surveys'): the three list buckets, one request with
 * its thread, creating a message, and how many requests have a reply the employee has not opened.
 * Query keys and options live here so other screens (the Dashboard, the app shell) can share the
 * cache and invalidate it.
 */
import { type QueryClient, queryOptions } from '@tanstack/react-query'
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import type { RequestStatus } from '@/api/enums'
import { ApiError } from '@/lib/apiError'

export type RequestItem = Schemas['RequestOut']
/** A request as the lists show it: no details and no thread (the request itself has them). */
export type RequestListItem = Schemas['RequestListItemOut']
export type RequestMessage = Schemas['MessageOut']
export type MessageAttachment = Schemas['AttachmentOut']
/** A line of the request summary: a question, its answer and, for a file answer, the file. */
export type SummaryLine = Schemas['SummaryLineOut']
/** Older messages of a thread, oldest first, and the cursor of the page before them. */
export type ThreadPage = Schemas['ThreadPageOut']

/** The list endpoints under /api/v1/requests and the status each one holds (spec §4). */
export type RequestBucket = 'open' | 'in_progress' | 'completed'

export const BUCKET_STATUS: Record<RequestBucket, RequestStatus> = {
  open: 'open',
  in_progress: 'in_progress',
  completed: 'closed',
}

/** Polling interval of the request page while it is visible (live updates come later). */
export const REQUEST_POLL_MS = 15_000

export const requestKeys = {
  all: ['requests'] as const,
  lists: () => ['requests', 'list'] as const,
  list: (bucket: RequestBucket) => ['requests', 'list', bucket] as const,
  detail: (id: number) => ['requests', 'detail', id] as const,
  summary: (id: number) => ['requests', 'summary', id] as const,
  unreadCount: () => ['requests', 'unread-count'] as const,
}

/** A failed call: the person-facing message plus the HTTP status. */
export class RequestApiError extends ApiError {
  override name = 'RequestApiError'
}

/** A request id from the path, or null when it is not a positive whole number. */
export function parseRequestId(raw: string | undefined): number | null {
  if (!raw || !/^\d+$/.test(raw)) return null
  const id = Number(raw)
  return Number.isSafeInteger(id) && id > 0 ? id : null
}

export function isNotFound(error: unknown): boolean {
  return error instanceof RequestApiError && (error.status === 404 || error.status === 422)
}

/** Spec §4: list fetches default a missing status to the bucket's own status. */
export function withDefaultStatus(
  requests: RequestListItem[],
  bucket: RequestBucket,
): RequestListItem[] {
  return requests.map((request) =>
    request.status ? request : { ...request, status: BUCKET_STATUS[bucket] },
  )
}

/** Runs a call; a network failure (no response at all) is logged and becomes a RequestApiError. */
async function call<T>(logText: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run()
  } catch (cause) {
    console.error(logText, cause)
    throw new RequestApiError(FALLBACK_ERROR, 0)
  }
}

export async function fetchRequestList(bucket: RequestBucket): Promise<RequestListItem[]> {
  const { data, error, response } = await call('Failed to fetch requests', () =>
    api.GET(`/api/v1/requests/${bucket}`),
  )
  if (!data || response.status !== 200) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to fetch requests', failure)
    throw failure
  }
  return withDefaultStatus(data.requests ?? [], bucket)
}

export async function fetchRequest(id: number): Promise<RequestItem> {
  const { data, error, response } = await call('Failed to fetch request', () =>
    api.GET('/api/v1/requests/{request_id}', { params: { path: { request_id: id } } }),
  )
  if (!data) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to fetch request', failure)
    throw failure
  }
  return data.request
}

/**
 * GET /api/v1/requests/{id}/summary: the answers of the survey the request was made with
 * (empty without one), a file answer with its file.
 */
export async function fetchRequestSummary(id: number): Promise<SummaryLine[]> {
  const { data, error, response } = await call('Failed to fetch request summary', () =>
    api.GET('/api/v1/requests/{request_id}/summary', { params: { path: { request_id: id } } }),
  )
  if (!data) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to fetch request summary', failure)
    throw failure
  }
  return data.lines
}

/** A submitted request's answers do not change: fetched once per visit. */
export function requestSummaryQuery(id: number) {
  return queryOptions({
    queryKey: requestKeys.summary(id),
    queryFn: () => fetchRequestSummary(id),
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
  })
}

/** GET /api/v1/requests/{id}/messages?before=: the page of messages before the cursor. */
export async function fetchOlderMessages(id: number, before: string): Promise<ThreadPage> {
  const { data, error, response } = await call('Failed to fetch older messages', () =>
    api.GET('/api/v1/requests/{request_id}/messages', {
      params: { path: { request_id: id }, query: { before } },
    }),
  )
  if (!data) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to fetch older messages', failure)
    throw failure
  }
  return data
}

export function requestListQuery(bucket: RequestBucket) {
  return queryOptions({
    queryKey: requestKeys.list(bucket),
    queryFn: () => fetchRequestList(bucket),
  })
}

/**
 * GET /api/v1/requests/{id}. The server marks the request's replies seen as it answers, so the
 * lists stop marking it unread at once, and the unread count is asked again when it may have
 * changed (the live `request.seen` event tells the employee's other tabs).
 */
export function requestQuery(id: number) {
  return queryOptions({
    queryKey: requestKeys.detail(id),
    queryFn: async ({ client }) => {
      const request = await fetchRequest(id)
      markListedRequestSeen(client, id)
      return request
    },
    // A missing request stays missing; other failures get one more try.
    retry: (count, error) => !isNotFound(error) && count < 1,
  })
}

/**
 * The request was just opened: the cached lists show it read, and the unread count is asked
 * again when it may have changed (something was unread).
 */
function markListedRequestSeen(client: QueryClient, id: number): void {
  let wasUnread = false
  client.setQueriesData<RequestListItem[]>({ queryKey: requestKeys.lists() }, (requests) => {
    if (!requests?.some((request) => request.id === id && request.unread)) return requests
    wasUnread = true
    return requests.map((request) => (request.id === id ? { ...request, unread: false } : request))
  })
  const count = client.getQueryData<number>(requestKeys.unreadCount())
  if (wasUnread || (count !== undefined && count > 0)) {
    void client.invalidateQueries({ queryKey: requestKeys.unreadCount() })
  }
}

/**
 * GET /api/v1/requests/unread_count: how many of the employee's requests have a concierge's
 * reply they have not opened yet.
 */
export async function fetchUnreadCount(): Promise<number> {
  const { data, error, response } = await call('Failed to fetch unread requests', () =>
    api.GET('/api/v1/requests/unread_count'),
  )
  if (!data) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to fetch unread requests', failure)
    throw failure
  }
  return data.count
}

export const unreadCountQuery = queryOptions({
  queryKey: requestKeys.unreadCount(),
  queryFn: fetchUnreadCount,
})

export interface NewMessage {
  requestId: number
  body: string
  sourceName: string
  attachmentKeys?: string[]
  /** One per send attempt; the same value on a retry, so the message is created once. */
  idempotencyKey: string
  /** Required to write to a Completed request: the message reopens it. */
  reopen?: boolean
}

/**
 * The options of a new message's POST (the employee's and the desk's): the request, the send
 * attempt's Idempotency-Key, and the message with its attachment keys when there are any.
 */
export function newMessageOptions<M extends { body: string }>(
  requestId: number,
  idempotencyKey: string,
  message: M,
  attachmentKeys: readonly string[] = [],
) {
  return {
    params: { path: { request_id: requestId }, header: { 'Idempotency-Key': idempotencyKey } },
    body: {
      message: {
        ...message,
        ...(attachmentKeys.length ? { attachment_keys: [...attachmentKeys] } : {}),
      },
    },
  }
}

/** MessageIn.source_name's limit, in characters (code points, as the server counts them). The
 * server ignores the value, but refuses a longer one: a first and a last name can be longer. */
const SOURCE_NAME_MAX = 200

function fittedSourceName(name: string): string {
  return Array.from(name).slice(0, SOURCE_NAME_MAX).join('')
}

/**
 * POST /api/v1/requests/{id}/messages; 201 expected, returns the request with its thread. A
 * Completed request answers 409 unless the message reopens it (`reopen`).
 */
export async function createMessage(message: NewMessage): Promise<RequestItem> {
  const options = newMessageOptions(
    message.requestId,
    message.idempotencyKey,
    { body: message.body, source: 'user', source_name: fittedSourceName(message.sourceName) },
    message.attachmentKeys,
  )
  const { data, error, response } = await call('Failed to create message', () =>
    api.POST('/api/v1/requests/{request_id}/messages', {
      ...options,
      body: { ...options.body, reopen: Boolean(message.reopen) },
    }),
  )
  if (response.status !== 201 || !data) {
    const failure = new RequestApiError(errorMessage(error, response), response.status)
    console.error('Failed to create message', failure)
    throw failure
  }
  return data.request
}

/** A random key for the Idempotency-Key header (randomUUID is missing on insecure origins). */
export function newIdempotencyKey(): string {
  const c = globalThis.crypto
  if (typeof c?.randomUUID === 'function') return c.randomUUID()
  const bytes = new Uint8Array(16)
  c.getRandomValues(bytes)
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('')
}
