/**
 * Account calls (spec §7 'Account'), read as {success, error, mfaRequired,
 * mfaEnrollmentAvailable} with the §8 error texts: signing in here, the second factor in
 * ./mfa.ts, the other account pages' calls in ./account.ts (so the sign-in page loads only its
 * own).
 */
import { api, errorMessage, fieldErrors } from '@/api/client'
import { session } from '@/lib/session'

export interface AccountResult {
  success: boolean
  error?: string
  errors?: Record<string, string[]>
  mfaRequired?: boolean
  mfaEnrollmentAvailable?: boolean
}

export const MESSAGES = {
  signInFallback: 'Unable to sign in at this time. Please try again later.',
  signInError: 'Sign in error',
  noAuthorization: 'No authorization token received',
} as const

export function bearerToken(response: Response): string | null {
  const header = response.headers.get('Authorization')
  return header ? header.replace(/^Bearer\s+/i, '') : null
}

export async function signIn(email: string, password: string): Promise<AccountResult> {
  const { data, error, response } = await api.POST('/api/v1/users/sign_in', {
    body: { user: { email, password } },
  })
  // 403: the employer ended this person's access (the reason names the company).
  if ([401, 403, 422, 429].includes(response.status)) {
    return {
      success: false,
      error: errorMessage(error, response, MESSAGES.signInFallback),
      errors: fieldErrors(error),
    }
  }
  if (!data) throw new Error(MESSAGES.signInError)
  const token = bearerToken(response)
  if (!token) return { success: false, error: MESSAGES.noAuthorization }
  session.start(token, data.expires_at)
  if (data.mfa_requires_verification) {
    session.setMfaEnrollmentAvailable(true)
    return { success: true, mfaEnrollmentAvailable: true }
  }
  if (data.mfa_required) {
    session.setMfaRequired(true)
    return { success: true, mfaRequired: true }
  }
  return { success: true }
}
