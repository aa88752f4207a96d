/** Reusable MSW handlers for the account API (spec §7 'Account'). */
import { HttpResponse, http } from 'msw'
import type { CurrentUser } from '@/api/client'
import { apiUrl } from './server'

export const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString()

export function signInOk(flags: { mfaRequired?: boolean; mfaRequiresVerification?: boolean } = {}) {
  return http.post(apiUrl('/api/v1/users/sign_in'), () =>
    HttpResponse.json(
      {
        success: true,
        expires_at: inAnHour(),
        mfa_required: flags.mfaRequired ?? false,
        mfa_requires_verification: flags.mfaRequiresVerification ?? false,
      },
      { headers: { Authorization: 'Bearer signed-in-token' } },
    ),
  )
}

export function currentUserOk(user: CurrentUser) {
  return http.get(apiUrl('/api/v1/users/current'), () => HttpResponse.json(user))
}

export function errorResponse(status: number, error: string, errors?: Record<string, string[]>) {
  return HttpResponse.json({ success: false, error, errors }, { status })
}

/** The MFA step's choices (`GET /mfa/methods`), strongest first. */
export function mfaMethodsOk(methods: string[] = ['sms'], phoneHint = '') {
  return http.get(apiUrl('/api/v1/mfa/methods'), () =>
    HttpResponse.json({ methods, phone_hint: phoneHint }),
  )
}

/** The company a sign-up link names (`GET /users/sign_up/companies/{slug}`); null: none. */
export function signUpCompanyOk(
  company: { name: string; logo_url: string | null } | null = {
    name: 'Acme Corp',
    logo_url: null,
  },
) {
  return http.get(apiUrl('/api/v1/users/sign_up/companies/:slug'), () =>
    company
      ? HttpResponse.json(company)
      : errorResponse(
          404,
          "We couldn't find that company. Please check the sign-up link from your employer.",
        ),
  )
}

/** The reset link's check as its page opens: usable, or the server's invalid-link answer. */
export function resetLinkCheck(usable = true) {
  const message = 'This password reset link is invalid or has expired. Please request a new one.'
  return http.post(apiUrl('/api/v1/users/password/check'), () =>
    usable
      ? HttpResponse.json({ success: true })
      : errorResponse(422, message, { reset_password_token: [message] }),
  )
}

/** A person's notification preferences as the server first answers them. */
export const DEFAULT_PREFERENCES = {
  reply_email: true,
  reply_push: true,
  completion_email: true,
  completion_push: true,
  show_previews: false,
  desk_new_request_push: false,
  desk_reply_push: false,
  is_concierge: false,
}

/** The notification endpoints a screen showing the Notifications section reads: the
 * defaults, push not set up on the server and no device yet. */
export function notificationsHandlers() {
  return [
    http.get(apiUrl('/api/v1/notifications/preferences'), () =>
      HttpResponse.json(DEFAULT_PREFERENCES),
    ),
    http.get(apiUrl('/api/v1/notifications/push_key'), () =>
      HttpResponse.json({ available: false, public_key: null }),
    ),
    http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
      HttpResponse.json({ push_subscriptions: [] }),
    ),
  ]
}
