/**
 * The concierge desk calls (/api/v1/concierge/...): the queue, one request with everything a
 * concierge needs, and the desk's writes (claim, assign, status, reply, note, presence).
 * Query keys live here so the live-events hook can refetch what an event touches.
 */
import { infiniteQueryOptions, keepPreviousData, queryOptions } from '@tanstack/react-query'
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import type { RequestStatus } from '@/api/enums'
import { newMessageOptions, type ThreadPage } from '@/features/conversation'
import { ApiError } from '@/lib/apiError'

export type QueueItem = Schemas['QueueItemOut']
export type QueueCounts = Schemas['QueueCountsOut']
export type Queue = Schemas['QueueOut']
export type DeskRequest = Schemas['DeskRequestOut']
/** A reply's answer: the reply as the thread shows it, and what it changed of the request. */
export type ReplyCreated = Schemas['ReplyCreatedOut']
export type DeskNote = Schemas['NoteOut']
export type Person = Schemas['PersonRef']
export type Concierge = Schemas['ConciergeOut']
export type RatingAverage = Schemas['AverageOut']
export type SavedReply = Schemas['SavedReplyOut']
export type SearchResult = Schemas['SearchResultOut']
export type FilledReply = Schemas['FilledReplyOut']
export type SavedReplyInput = Schemas['SavedReplyIn']
export type RatingSummary = Schemas['RatingSummaryOut']

export type QueueOrder = 'due' | 'oldest' | 'newest'
/** 'overdue', 'soon' (due within the hour), or '' for every request. */
export type DueFilter = '' | 'overdue' | 'soon'
/** 'mine', 'unassigned', or '' for everyone. */
export type AssigneeFilter = '' | 'mine' | 'unassigned'
export type StatusAction = Schemas['StatusIn']['action']

export interface QueueFilters {
  status: RequestStatus
  /** A company id, or null for every company. */
  company: number | null
  assignee: AssigneeFilter
  q: string
  order: QueueOrder
  due: DueFilter
}

export const deskKeys = {
  all: ['concierge'] as const,
  queues: () => ['concierge', 'queue'] as const,
  queue: (filters: QueueFilters) => ['concierge', 'queue', filters] as const,
  details: () => ['concierge', 'detail'] as const,
  detail: (id: number) => ['concierge', 'detail', id] as const,
  presence: (id: number) => ['concierge', 'presence', id] as const,
  concierges: () => ['concierge', 'concierges'] as const,
  ratings: () => ['concierge', 'ratings'] as const,
  savedReplies: () => ['concierge', 'saved-replies'] as const,
  search: (q: string) => ['concierge', 'queue', 'search', q] as const,
  filledReplies: (requestId: number) => ['concierge', 'saved-replies', 'for', requestId] as const,
}

/** A failed desk call: the server's message for a person, plus the HTTP status (0: no answer). */
export class DeskApiError extends ApiError {
  override name = 'DeskApiError'
}

type Answer<T> = { data?: T; error?: unknown; response: Response }

/** Runs a call and returns its data, or throws a DeskApiError with the server's text. */
async function call<T>(label: string, run: () => Promise<Answer<T>>, ok = 200): Promise<T> {
  let answer: Answer<T>
  try {
    answer = await run()
  } catch (cause) {
    console.error(label, cause)
    throw new DeskApiError(FALLBACK_ERROR, 0)
  }
  const { data, error, response } = answer
  if (response.status !== ok || data === undefined) {
    throw new DeskApiError(errorMessage(error, response), response.status)
  }
  return data
}

// ----------------------------------------------------------------------------- reads

/** A page of the queue: the first, or the one after `cursor` (a page's `next_cursor`). */
export async function fetchQueue(
  filters: QueueFilters,
  cursor: string | null = null,
): Promise<Queue> {
  const query: {
    status: RequestStatus
    order: QueueOrder
    company?: number
    assignee?: string
    q?: string
    due?: 'overdue' | 'soon'
    cursor?: string
  } = { status: filters.status, order: filters.order }
  if (filters.due) query.due = filters.due
  if (cursor) query.cursor = cursor
  if (filters.company !== null) query.company = filters.company
  if (filters.assignee) query.assignee = filters.assignee
  const q = filters.q.trim()
  if (q) query.q = q
  return call('Failed to fetch the queue', () =>
    api.GET('/api/v1/concierge/requests', { params: { query } }),
  )
}

export async function fetchDeskRequest(id: number): Promise<DeskRequest> {
  const data = await call('Failed to fetch the request', () =>
    api.GET('/api/v1/concierge/requests/{request_id}', { params: { path: { request_id: id } } }),
  )
  return data.request
}

export async function fetchConcierges(): Promise<Concierge[]> {
  const data = await call('Failed to fetch concierges', () =>
    api.GET('/api/v1/concierge/concierges'),
  )
  return data.concierges
}

/** The queue, a page at a time ('Show more' loads the next); a refetch reloads every page shown. */
export function queueQuery(filters: QueueFilters) {
  return infiniteQueryOptions({
    queryKey: deskKeys.queue(filters),
    queryFn: ({ pageParam }) => fetchQueue(filters, pageParam),
    initialPageParam: null as string | null,
    getNextPageParam: (page: Queue) => page.next_cursor,
    // Keep the rows on screen while another tab or filter loads.
    placeholderData: keepPreviousData,
  })
}

export function deskRequestQuery(id: number) {
  return queryOptions({
    queryKey: deskKeys.detail(id),
    queryFn: () => fetchDeskRequest(id),
    retry: (count, error) =>
      !(error instanceof DeskApiError && [403, 404].includes(error.status)) && count < 1,
  })
}

export const conciergesQuery = queryOptions({
  queryKey: deskKeys.concierges(),
  queryFn: fetchConcierges,
  staleTime: 5 * 60_000,
})

// ----------------------------------------------------------------------------- writes

const path = (id: number) => ({ path: { request_id: id } })

export async function claimRequest(id: number): Promise<DeskRequest> {
  const data = await call('Failed to claim the request', () =>
    api.POST('/api/v1/concierge/requests/{request_id}/claim', { params: path(id) }),
  )
  return data.request
}

export async function assignRequest(id: number, assigneeId: number | null): Promise<DeskRequest> {
  const data = await call('Failed to assign the request', () =>
    api.POST('/api/v1/concierge/requests/{request_id}/assign', {
      params: path(id),
      body: { assignee_id: assigneeId },
    }),
  )
  return data.request
}

export async function changeStatus(id: number, action: StatusAction): Promise<DeskRequest> {
  const data = await call('Failed to change the status', () =>
    api.POST('/api/v1/concierge/requests/{request_id}/status', {
      params: path(id),
      body: { action },
    }),
  )
  return data.request
}

export interface NewReply {
  requestId: number
  body: string
  attachmentKeys: string[]
  /** One per send attempt; the same value on a retry, so the reply is created once. */
  idempotencyKey: string
}

/** The page of the thread's messages before the cursor (the request's `older_cursor`). */
export async function fetchDeskOlderMessages(id: number, before: string): Promise<ThreadPage> {
  return call('Failed to fetch older messages', () =>
    api.GET('/api/v1/concierge/requests/{request_id}/messages', {
      params: { ...path(id), query: { before } },
    }),
  )
}

export async function sendReply(reply: NewReply): Promise<ReplyCreated> {
  return call(
    'Failed to send the reply',
    () =>
      api.POST(
        '/api/v1/concierge/requests/{request_id}/messages',
        newMessageOptions(
          reply.requestId,
          reply.idempotencyKey,
          { body: reply.body },
          reply.attachmentKeys,
        ),
      ),
    201,
  )
}

/**
 * The request with a reply's answer in it: the reply at the end of the thread (once: the live
 * update may have brought it already) and the request's fields the reply changed.
 */
export function withReply(request: DeskRequest, reply: ReplyCreated): DeskRequest {
  const known = request.messages.some((message) => message.id === reply.message.id)
  return {
    ...request,
    ...reply.change,
    messages: known ? request.messages : [...request.messages, reply.message],
  }
}

export async function addNote(id: number, body: string): Promise<DeskNote> {
  const data = await call(
    'Failed to add the note',
    () =>
      api.POST('/api/v1/concierge/requests/{request_id}/notes', {
        params: path(id),
        body: { body },
      }),
    201,
  )
  return data.note
}

/** 'I have this request open': answers the other concierges who have it open. */
export async function presenceHeartbeat(id: number): Promise<Person[]> {
  const data = await call('Failed to send presence', () =>
    api.POST('/api/v1/concierge/requests/{request_id}/presence', { params: path(id) }),
  )
  return data.viewers
}

/** 'I closed this request'. `keepalive` lets it finish while the page unloads. */
export async function presenceLeave(id: number, keepalive = false): Promise<void> {
  await api
    .DELETE('/api/v1/concierge/requests/{request_id}/presence', { params: path(id), keepalive })
    .catch(() => undefined)
}

export async function fetchRatingSummary(): Promise<RatingSummary> {
  return call('rating summary', () => api.GET('/api/v1/concierge/ratings'))
}

export function ratingSummaryQuery() {
  return queryOptions({ queryKey: deskKeys.ratings(), queryFn: fetchRatingSummary })
}

// ----------------------------------------------------------------------------- saved replies

export async function fetchSavedReplies(): Promise<SavedReply[]> {
  const data = await call('Failed to fetch saved replies', () =>
    api.GET('/api/v1/concierge/saved-replies'),
  )
  return data.saved_replies
}

export function savedRepliesQuery() {
  return queryOptions({ queryKey: deskKeys.savedReplies(), queryFn: fetchSavedReplies })
}

export async function fetchFilledReplies(requestId: number): Promise<FilledReply[]> {
  const data = await call('Failed to fetch saved replies', () =>
    api.GET('/api/v1/concierge/requests/{request_id}/saved-replies', {
      params: { path: { request_id: requestId } },
    }),
  )
  return data.saved_replies
}

export function filledRepliesQuery(requestId: number) {
  return queryOptions({
    queryKey: deskKeys.filledReplies(requestId),
    queryFn: () => fetchFilledReplies(requestId),
  })
}

export async function createSavedReply(input: SavedReplyInput): Promise<SavedReply> {
  const data = await call(
    'Failed to save the reply',
    () => api.POST('/api/v1/concierge/saved-replies', { body: input }),
    201,
  )
  return data.saved_reply
}

export async function updateSavedReply(id: number, input: SavedReplyInput): Promise<SavedReply> {
  const data = await call('Failed to save the reply', () =>
    api.PUT('/api/v1/concierge/saved-replies/{reply_id}', {
      params: { path: { reply_id: id } },
      body: input,
    }),
  )
  return data.saved_reply
}

export async function deleteSavedReply(id: number): Promise<void> {
  let response: Response
  let error: unknown
  try {
    ;({ response, error } = await api.DELETE('/api/v1/concierge/saved-replies/{reply_id}', {
      params: { path: { reply_id: id } },
    }))
  } catch (cause) {
    console.error('Failed to delete the saved reply', cause)
    throw new DeskApiError(FALLBACK_ERROR, 0)
  }
  if (response.status !== 204)
    throw new DeskApiError(errorMessage(error, response), response.status)
}

// ----------------------------------------------------------------------------- search

export async function searchRequests(q: string): Promise<SearchResult[]> {
  const data = await call('Failed to search', () =>
    api.GET('/api/v1/concierge/search', { params: { query: { q } } }),
  )
  return data.results
}

export function searchQuery(q: string) {
  return queryOptions({
    queryKey: deskKeys.search(q),
    queryFn: () => searchRequests(q),
    placeholderData: keepPreviousData,
  })
}
