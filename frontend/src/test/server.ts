/**
 * The MSW server for component tests. Each test declares the calls it expects; the one default
 * is the live-event ticket, refused, so screens inside the app shell fall back to polling.
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
)
