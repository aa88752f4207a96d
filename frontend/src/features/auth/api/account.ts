/** The account pages' calls (spec §7 'Account'): sign-up, password reset, unlock, email. */
import type { Middleware } from 'openapi-fetch'
import { api, errorMessage, fieldErrors, type Schemas } from '@/api/client'
import { type AccountResult, signIn } from './auth'

export const ACCOUNT_MESSAGES = {
  signUpFallback: 'Unable to sign up at this time. Please try again later.',
  signUpError: 'Sign up error',
  resetFallback: 'Unable to reset password at this time. Please try again later.',
  unknownCompany:
    "We couldn't find that company. Please check the sign-up link from your employer.",
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

export interface SignUpResult extends AccountResult {
  /** The address to check: sign-up went through but its sign-in was refused. */
  checkEmail?: string
}

export type SignUpCompany = Schemas['SignUpCompanyOut']

/**
 * The company a sign-up link names (name and logo), or null when there is none: the page
 * answers an unknown link on load. Other failures throw (the form then shows without the name).
 */
export async function signUpCompany(companySlug: string): Promise<SignUpCompany | null> {
  const { data, error, response } = await api.GET(
    '/api/v1/users/sign_up/companies/{company_slug}',
    {
      params: { path: { company_slug: companySlug } },
    },
  )
  if (response.status === 404) return null
  if (!data) throw new Error(errorMessage(error, response))
  return data
}

/** The automatic sign-in after sign-up, and the status of the server's answer to it. */
async function signInAfterSignUp(email: string, password: string) {
  let status = 0
  const answer: Middleware = {
    onResponse({ request, response }) {
      if (new URL(request.url).pathname.endsWith('/users/sign_in')) status = response.status
      return response
    },
  }
  api.use(answer)
  try {
    const result = await signIn(email, password)
    return { result, status }
  } finally {
    api.eject(answer)
  }
}

/**
 * Signs up, then in (spec §4). An email that already has an account gets a new account's
 * answer (its owner is emailed), so the sign-in with the password typed here is refused: the
 * page then shows 'Check your email' rather than a sign-in error, telling no one the account
 * exists.
 */
export async function signUp(input: SignUpInput): Promise<SignUpResult> {
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
  const { result, status } = await signInAfterSignUp(email, input.password)
  if (!result.success && status === 401) return { success: true, checkEmail: email }
  return result
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

export const INVALID_RESET_LINK =
  'This password reset link is invalid or has expired. Please request a new one.'

/**
 * Asks, as the reset page opens, whether its link can still set a new password (asking does not
 * use it up): the server's invalid-link message when it cannot, else null. An answer that tells
 * neither (too many attempts, no connection) is null too: the form shows and its submit says.
 */
export async function resetLinkProblem(token: string): Promise<string | null> {
  const { error, response } = await api.POST('/api/v1/users/password/check', {
    body: { reset_password_token: token },
  })
  if (response.status !== 422) return null
  return errorMessage(error, undefined, INVALID_RESET_LINK)
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
