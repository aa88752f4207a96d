/**
 * The configured API client over the generated OpenAPI types (spec §7): sends the
 * authorization and mfa-token headers, and handles 401 (spec §4).
 */
import createClient, { type Middleware } from 'openapi-fetch'
import { resetAnalyticsIdentity } from '@/lib/analytics'
import { config } from '@/lib/config'
import { returnTarget, session } from '@/lib/session'
import { takeEarlyResponse } from './earlyRequests'
import type { components, paths } from './schema'

export type Schemas = components['schemas']
export type CurrentUser = Schemas['CurrentUserOut']

export const MFA_AUTHENTICATION_REQUIRED = 'MFA authentication required'
export const FALLBACK_ERROR = 'An unexpected error occurred'

/** A 4xx/5xx body: `{success: false, error, errors}`. */
export interface ApiErrorBody {
  success?: boolean
  error?: string
  errors?: Record<string, string[]>
}

/**
 * Calls in flight that may pass the session's MFA step (a first factor being added): an
 * 'MFA authentication required' answer meanwhile may be about the session before it.
 */
export const mfaStepCalls = { pending: 0 }

type ForcedSignOutHandler = () => void
let onForcedSignOut: ForcedSignOutHandler | undefined
let forcedSignOutPending = false

/**
 * How the app goes to sign-in. A 401 that comes before the app has said (the first screen's
 * early requests) waits for it, rather than reloading the page and losing what it started.
 */
export function setForcedSignOutHandler(handler: ForcedSignOutHandler) {
  onForcedSignOut = handler
  if (forcedSignOutPending) {
    forcedSignOutPending = false
    handler()
  }
}

/**
 * Clears the session and the analytics identity and sends the user to sign in, remembering
 * where they were (spec §4).
 */
export function forceSignOut() {
  returnTarget.save(window.location.pathname + window.location.search)
  session.clear()
  resetAnalyticsIdentity()
  if (onForcedSignOut) onForcedSignOut()
  else forcedSignOutPending = true
}

const authMiddleware: Middleware = {
  onRequest({ request }) {
    const { token, mfaToken } = session.get()
    if (token && !request.headers.has('Authorization')) {
      request.headers.set('Authorization', `Bearer ${token}`)
    }
    if (mfaToken) request.headers.set('mfa-token', mfaToken)
    return request
  },
  async onResponse({ request, response }) {
    if (response.status !== 401) return response
    const path = new URL(request.url).pathname
    if (path.endsWith('/users/sign_in') || path.endsWith('/mfa/verify')) return response
    const body = (await response
      .clone()
      .json()
      .catch(() => ({}))) as ApiErrorBody
    if (body.error === MFA_AUTHENTICATION_REQUIRED) {
      // Not when the session got its MFA token after this request left (a first factor was
      // just added): the answer is about the session as it was then.
      const { mfaToken } = session.get()
      if (!mfaStepCalls.pending && (!mfaToken || request.headers.get('mfa-token') === mfaToken))
        session.setMfaRequired(true)
      return response
    }
    // Only about the session still in use: a late answer to a request of one that has ended
    // (signed out, or another signed in since) would otherwise end this one, or remember the
    // screen it came from as where to go after the next sign-in.
    const { token } = session.get()
    if (token && request.headers.get('Authorization') === `Bearer ${token}`) forceSignOut()
    return response
  },
}

export const api = createClient<paths>({
  baseUrl: config.apiBaseUrl,
  // A request the document started early for the first screen answers its first ask.
  fetch: (request: Request) => takeEarlyResponse(request) ?? globalThis.fetch(request),
})
api.use(authMiddleware)

/** The person-facing text of an error body: server error, else status text, else fallback. */
export function errorMessage(
  body: unknown,
  response: Response | undefined,
  fallback: string = FALLBACK_ERROR,
): string {
  const error = (body as ApiErrorBody | undefined)?.error
  if (error) return error
  if (response?.statusText) return response.statusText
  return fallback
}

export function fieldErrors(body: unknown): Record<string, string[]> {
  return (body as ApiErrorBody | undefined)?.errors ?? {}
}
