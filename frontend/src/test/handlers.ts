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
