/** Test data and MSW handlers for the request screens (spec §7 'Requests and surveys'). */
import { HttpResponse, http } from 'msw'
import type {
  RequestBucket,
  RequestItem,
  RequestListItem,
  RequestMessage,
} from '@/features/conversation'
import { apiUrl } from '@/test/server'

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

let nextId = 100

export function makeRequest(overrides: Partial<RequestItem> = {}): RequestItem {
  const id = overrides.id ?? nextId++
  return {
    id,
    external_id: `6f1c1d7e-0000-4000-8000-${String(id).padStart(12, '0')}`,
    name: `Request ${id}`,
    status: 'open',
    issued_at: minutesAgo(5),
    details: '',
    created_at: minutesAgo(5),
    survey_category_id: 1,
    survey_category_name: 'Home',
    survey_category_image_url: null,
    survey_category_icon: 'home',
    last_message_at: null,
    unread: false,
    messages: [],
    ...overrides,
  }
}

export function makeMessage(overrides: Partial<RequestMessage> = {}): RequestMessage {
  const id = overrides.id ?? nextId++
  return {
    id,
    body_html: `Message ${id}`,
    source: 'life_concierge',
    source_name: 'Alex from Concierge',
    external_created_at: minutesAgo(3),
    reopened_request: false,
    by_email: false,
    attachment_keys: [],
    attachments: [],
    ...overrides,
  }
}

/** A message just sent with `body`: stored now, each attachment key a small PDF. */
export function sentMessage(
  body: string,
  attachmentKeys: readonly string[],
  overrides: Partial<RequestMessage> = {},
): RequestMessage {
  return makeMessage({
    body_html: body,
    external_created_at: new Date().toISOString(),
    reopened_request: false,
    attachment_keys: [...attachmentKeys],
    attachments: attachmentKeys.map((key) => ({
      key,
      filename: key.split('/').pop() ?? key,
      content_type: 'application/pdf',
      size: 14,
    })),
    ...overrides,
  })
}

/** A request for a list handler; a missing status tests spec §4's default. */
type ListEntry = Omit<RequestItem, 'status'> & { status?: RequestItem['status'] }

/** A request as the lists carry it: without its details and thread. */
export function listItem(request: ListEntry): Omit<RequestListItem, 'status'> {
  const { details, expect_reply_by, messages, older_cursor, ...item } = request
  return item
}

/** The three list endpoints, each request as the lists carry it; missing buckets answer with
 * no requests. */
export function listHandlers(lists: Partial<Record<RequestBucket, ListEntry[]>>) {
  return (['open', 'in_progress', 'completed'] as const).map((bucket) =>
    http.get(apiUrl(`/api/v1/requests/${bucket}`), () =>
      HttpResponse.json({ requests: (lists[bucket] ?? []).map(listItem) }),
    ),
  )
}

/**
 * GET /api/v1/requests/{id}: answers with `current()` each time, counting the calls. Other paths
 * under /requests/ (the unread count) go on to their own handlers.
 */
export function detailHandler(current: () => RequestItem, calls = { count: 0 }) {
  return http.get(apiUrl('/api/v1/requests/:id'), ({ params }) => {
    if (!/^\d+$/.test(String(params.id))) return
    calls.count++
    const request = current()
    if (String(request.id) !== params.id) {
      return HttpResponse.json({ success: false, error: 'Not found.' }, { status: 404 })
    }
    return HttpResponse.json({ request })
  })
}

/** GET /api/v1/requests/unread_count: answers with `count()` each time, counting the calls. */
export function unreadCountHandler(count: () => number, calls = { count: 0 }) {
  return http.get(apiUrl('/api/v1/requests/unread_count'), () => {
    calls.count++
    return HttpResponse.json({ count: count() })
  })
}
