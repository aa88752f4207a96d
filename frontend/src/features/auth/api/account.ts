/** The account pages' calls (spec §7 'Account'): sign-up, password reset, unlock, email. */
import { api, errorMessage, fieldErrors } from '@/api/client'
import { type AccountResult, signIn } from './auth'

export const ACCOUNT_MESSAGES = {
  signUpFallback: 'Unable to sign up at this time. Please try again later.',
  signUpError: 'Sign up error',
  resetFallback: 'Unable to reset password at this time. Please try again later.',
  unlockFallback: 'Unable to unlock your account',
  verifyEmailFallback: 'Unable to confirm your email address',
} as const

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
      error: errorMessage(error, response, ACCOUNT_MESSAGES.signUpFallback),
      errors: fieldErrors(error),
    }
  }
  if (!data) throw new Error(ACCOUNT_MESSAGES.signUpError)
  const { email } = JSON.parse(data.data) as { email: string }
  return signIn(email, input.password)
}

export async function requestPasswordReset(email: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/users/password', {
    body: { user: { email } },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, ACCOUNT_MESSAGES.resetFallback) }
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
      error: errorMessage(error, response, ACCOUNT_MESSAGES.resetFallback),
      errors: fieldErrors(error),
    }
  }
  return { success: true }
}

export const INVALID_UNLOCK_TOKEN = 'Invalid unlock token.'

export async function unlockAccount(unlockToken: string): Promise<AccountResult> {
  const { error, response } = await api.GET('/api/v1/users/unlock', {
    params: { query: { unlock_token: unlockToken } },
  })
  if (!response.ok) {
    return {
      success: false,
      error: errorMessage(error, undefined, ACCOUNT_MESSAGES.unlockFallback),
    }
  }
  return { success: true }
}

export const INVALID_EMAIL_VERIFICATION =
  'This confirmation link is invalid, already used or expired. Sign in to send yourself a new one.'

/** Follows the link emailed at sign-up: confirms the account's email address. */
export async function verifyEmail(token: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/users/verify_email', { body: { token } })
  if (!response.ok) {
    return {
      success: false,
      error: errorMessage(error, undefined, ACCOUNT_MESSAGES.verifyEmailFallback),
    }
  }
  return { success: true }
}
