/**
 * A signed-in page's first API requests, started by the document's first script (src/early.ts)
 * as the page arrives, with the stored session: on a phone that takes a network round trip or
 * two off the first screen, since the data then travels beside the app's code rather than after
 * it (the API client takes the answers over, api/earlyRequests.ts). The user on every page, and
 * on the landing screens their shell's and their own data, exactly as their route loaders ask
 * (the AppLayout's and the Dashboard's, Requests' and Benefits & Offers' loaders;
 * firstScreenRequests.test.ts holds the lists together).
 *
 * This imports none of the app's modules but the hand-over, so the script runs before they
 * arrive.
 */
import { earlyRequestsOpen, type SessionHeaders, startEarlyRequest } from '@/api/earlyRequests'

/**
 * What every signed-in page asks for first: the user, and the app shell's site, company and
 * unread requests' count.
 */
const USER = '/api/v1/users/current'
const SHELL = ['/api/v1/site', '/api/v1/company/access', '/api/v1/requests/unread_count']

/** The landing screens, by path: their shell's data and their own. */
const SCREEN_REQUESTS: Record<string, string[]> = {
  '/dashboard': [
    ...SHELL,
    '/api/v1/requests/in_progress',
    '/api/v1/requests/open',
    '/api/v1/recommended_request_categories',
    '/api/v1/survey_categories',
  ],
  '/requests': [
    ...SHELL,
    '/api/v1/requests/in_progress',
    '/api/v1/requests/open',
    '/api/v1/requests/completed',
  ],
  '/benefits-and-offers': [
    ...SHELL,
    '/api/v1/offerings?types=benefit&limit=6&prefer_featured=true',
    '/api/v1/offerings?types=product&limit=6&prefer_featured=true',
  ],
}

/** The API paths (with query strings) a page at `pathname` asks for first. */
export function firstScreenRequests(pathname: string): string[] {
  return [USER, ...(SCREEN_REQUESTS[pathname.replace(/(.)\/$/, '$1')] ?? [])]
}

/** The session keys lib/session.ts keeps in local storage. */
const TOKEN_KEY = 'session.token'
const EXPIRES_KEY = 'session.tokenExpiresAt'
const MFA_TOKEN_KEY = 'session.mfaToken'
const MFA_PENDING_KEYS = ['session.mfaRequired', 'session.mfaEnrollmentAvailable']

/** The stored session's headers, unless there is none or it still owes its MFA step. */
function storedSessionHeaders(storage: Storage): SessionHeaders | null {
  const token = storage.getItem(TOKEN_KEY)
  const expiresAt = Number(storage.getItem(EXPIRES_KEY))
  if (!token || !(expiresAt > Date.now())) return null
  if (MFA_PENDING_KEYS.some((key) => storage.getItem(key) === 'true')) return null
  const headers: SessionHeaders = { Authorization: `Bearer ${token}` }
  const mfaToken = storage.getItem(MFA_TOKEN_KEY)
  if (mfaToken) headers['mfa-token'] = mfaToken
  return headers
}

/**
 * Starts the first requests of the page at `pathname` against the API at `apiBaseUrl` when a
 * session is stored. Runs once, and not at all once the app has made a request of its own.
 */
export function startFirstScreenRequests(
  apiBaseUrl: string,
  pathname: string = window.location.pathname,
): void {
  if (!earlyRequestsOpen()) return
  let headers: SessionHeaders | null = null
  try {
    headers = storedSessionHeaders(window.localStorage)
  } catch {
    return // Storage refused (private mode): the app asks for itself.
  }
  if (!headers) return
  for (const path of firstScreenRequests(pathname))
    startEarlyRequest(`${apiBaseUrl}${path}`, headers)
}
