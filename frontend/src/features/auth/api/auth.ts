/**
 * Account calls (spec §7 'Account'), read as {success, error, mfaRequired,
 * mfaEnrollmentAvailable} with the §8 error texts.
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
  signUpFallback: 'Unable to sign up at this time. Please try again later.',
  signUpError: 'Sign up error',
  noAuthorization: 'No authorization token received',
  mfaVerifyFallback: 'Unable to verify MFA token',
  noMfaHeader: 'No MFA verification token received',
  resetFallback: 'Unable to reset password at this time. Please try again later.',
  sendOtpFallback: 'Unable to request MFA token at this time.',
  enrollFallback: 'Unable to enroll in MFA at this time.',
  unlockFallback: 'Unable to unlock your account',
  verifyEmailFallback: 'Unable to confirm your email address',
} as const

export function bearerToken(response: Response): string | null {
  const header = response.headers.get('Authorization')
  return header ? header.replace(/^Bearer\s+/i, '') : null
}

export async function signIn(email: string, password: string): Promise<AccountResult> {
  const { data, error, response } = await api.POST('/api/v1/users/sign_in', {
    body: { user: { email, password } },
  })
  if (response.status === 401 || response.status === 422 || response.status === 429) {
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

export interface SignUpInput {
  email: string
  password: string
  name: string
  last_name: string
  company_slug: string
  /** The invite link's token, for companies that take sign-ups by invite only. */
  invite?: string
}

export async function signUp(input: SignUpInput): Promise<AccountResult> {
  const { data, error, response } = await api.POST('/api/v1/users/sign_up', {
    body: { user: { ...input, terms_of_service: 1 } },
  })
  if (response.status === 401 || response.status === 422 || response.status === 429) {
    return {
      success: false,
      error: errorMessage(error, response, MESSAGES.signUpFallback),
      errors: fieldErrors(error),
    }
  }
  if (!data) throw new Error(MESSAGES.signUpError)
  const { email } = JSON.parse(data.data) as { email: string }
  return signIn(email, input.password)
}

export async function requestPasswordReset(email: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/users/password', {
    body: { user: { email } },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.resetFallback) }
  }
  return { success: true }
}

export async function resetPassword(
  token: string,
  password: string,
  confirmation: string,
): Promise<AccountResult> {
  const { error, response } = await api.PUT('/api/v1/users/password', {
    body: {
      reset_password_token: token,
      password,
      password_confirmation: confirmation,
    },
  })
  if (!response.ok) {
    return {
      success: false,
      error: errorMessage(error, response, MESSAGES.resetFallback),
      errors: fieldErrors(error),
    }
  }
  return { success: true }
}

export async function sendOtp(): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/mfa/send-otp')
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.sendOtpFallback) }
  }
  return { success: true }
}

/** A second factor's proof for `POST /mfa/verify`: no method is the spec's SMS code. */
export type MfaProof =
  | { method: 'totp' | 'recovery'; otp: string }
  | { method: 'passkey'; credential: Record<string, unknown> }

export async function verifyMfa(otp: string, proof?: MfaProof): Promise<AccountResult> {
  const body = !proof
    ? { otp }
    : proof.method === 'passkey'
      ? { otp: '', method: proof.method, credential: proof.credential }
      : { otp: proof.otp, method: proof.method }
  const { data, error, response } = await api.POST('/api/v1/mfa/verify', { body })
  if (!data?.success) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.mfaVerifyFallback) }
  }
  const mfaToken = response.headers.get('mfa-token')
  if (!mfaToken) return { success: false, error: MESSAGES.noMfaHeader }
  session.setMfaToken(mfaToken)
  return { success: true }
}

export async function enrollMfa(phoneDigits: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/mfa', {
    body: { mfa_number: phoneDigits },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.enrollFallback) }
  }
  return { success: true }
}

export const INVALID_UNLOCK_TOKEN = 'Invalid unlock token.'

export async function unlockAccount(unlockToken: string): Promise<AccountResult> {
  const { error, response } = await api.GET('/api/v1/users/unlock', {
    params: { query: { unlock_token: unlockToken } },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.unlockFallback) }
  }
  return { success: true }
}

export const INVALID_EMAIL_VERIFICATION =
  'This confirmation link is invalid, already used or expired. Sign in to send yourself a new one.'

/** Follows the link emailed at sign-up: confirms the account's email address. */
export async function verifyEmail(token: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/users/verify_email', { body: { token } })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MESSAGES.verifyEmailFallback) }
  }
  return { success: true }
}
