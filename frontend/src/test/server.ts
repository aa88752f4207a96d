/**
 * The MSW server for component tests. Each test declares the calls it expects; the defaults
 * are the live-event ticket, refused, so screens inside the app shell fall back to polling, and
 * file addresses (`expiring_url`), which a thread's thumbnails ask for as they render, and the
 * company-report access, empty (most people are not a company's admin), a request's survey
 * summary, empty (the thread then shows the request's details as they are), and the unread
 * requests' count the app shell shows, none, and company sign-in for a typed email, none, and
 * who on the concierge side opened a request ("Seen by"), nobody, and a company's activity
 * log, empty.
 */
import { HttpResponse, http } from 'msw'
import { setupServer } from 'msw/node'
import { config } from '@/lib/config'

/** The absolute address of an API path, as the API client calls it. */
export function apiUrl(path: string): string {
  return `${config.apiBaseUrl}${path}`
}

export const TEST_SITE = {
  terms_url: 'https://legal.example.org/terms',
  privacy_url: 'https://legal.example.org/privacy',
}

export const server = setupServer(
  http.get(apiUrl('/api/v1/site'), () => HttpResponse.json(TEST_SITE)),
  http.post(apiUrl('/api/v1/events/ticket'), () =>
    HttpResponse.json({ success: false, error: 'Live updates are unavailable' }, { status: 503 }),
  ),
  http.get(apiUrl('/api/v1/uploads/expiring_url'), ({ request }) => {
    const query = new URL(request.url).searchParams
    const view = query.get('inline') === 'true' ? 'inline' : 'download'
    const key = encodeURIComponent(query.get('key') ?? '')
    return HttpResponse.json({ expiring_url: `https://files.example.com/${view}/${key}` })
  }),
  http.get(apiUrl('/api/v1/company/access'), () => HttpResponse.json({ companies: [] })),
  http.get(apiUrl('/api/v1/requests/:id/summary'), () =>
    HttpResponse.json({ success: true, lines: [] }),
  ),
  http.get(apiUrl('/api/v1/requests/unread_count'), () => HttpResponse.json({ count: 0 })),
  http.get(apiUrl('/api/v1/requests/:id/seen_by'), () => HttpResponse.json({ seen_by: [] })),
  http.get(apiUrl('/api/v1/company/:id/audit'), () =>
    HttpResponse.json({ events: [], next_before: null }),
  ),
  // Company sign-in: no company of a typed email's domain has one.
  http.get(apiUrl('/api/v1/sso/discover'), () => HttpResponse.json({ available: false })),
)
