/**
 * The MFA step's other factors (authenticator apps, passkeys, recovery codes) and signing in
 * with a passkey: loaded only when used, so the sign-in page's first load stays small. The
 * MFA token is stored by `verifyMfa`, as for the SMS code.
 */
import { api, errorMessage } from '@/api/client'
import { passkeyFailureMessage } from '@/lib/passkeys'
import { session } from '@/lib/session'
import { type AccountResult, bearerToken, MESSAGES } from './auth'
import { MFA_MESSAGES, verifyMfa } from './mfa'

export type MfaMethods = { methods: string[]; phone_hint: string }

/** The ways this user can pass the MFA step, strongest first (then 'recovery'). */
export async function mfaMethods(): Promise<MfaMethods> {
  // Without an answer, the spec's SMS code form is shown.
  const fallback = { methods: ['sms'], phone_hint: '' }
  try {
    const { data } = await api.GET('/api/v1/mfa/methods')
    return data?.methods.length ? data : fallback
  } catch {
    return fallback
  }
}

function passkeyFailure(error: unknown): string {
  return passkeyFailureMessage(error, 'We couldn’t use a passkey on this device. Please try again.')
}

/** The MFA step with a passkey (the WebAuthn library loads on demand). */
export async function verifyMfaWithPasskey(): Promise<AccountResult> {
  const assertion = await passkeyAssertion(
    await api.POST('/api/v1/mfa/passkey/options'),
    MFA_MESSAGES.mfaVerifyFallback,
  )
  if ('error' in assertion) return { success: false, error: assertion.error }
  return verifyMfa('', { method: 'passkey', credential: assertion.credential })
}

/** Asks the device for a passkey assertion to the server's options (or says why it can't). */
async function passkeyAssertion(
  options: { data?: { options: unknown }; error?: unknown },
  fallback: string,
): Promise<{ credential: Record<string, unknown> } | { error: string }> {
  if (!options.data) return { error: errorMessage(options.error, undefined, fallback) }
  try {
    const { startAuthentication } = await import('@simplewebauthn/browser')
    const credential = await startAuthentication({
      // biome-ignore lint/suspicious/noExplicitAny: the server's options are the library's JSON.
      optionsJSON: options.data.options as any,
    })
    return { credential: credential as unknown as Record<string, unknown> }
  } catch (error) {
    return { error: passkeyFailure(error) }
  }
}

/** Signs in with a passkey alone: the answer carries the authorization and mfa-token headers. */
export async function signInWithPasskey(): Promise<AccountResult> {
  const assertion = await passkeyAssertion(
    await api.POST('/api/v1/users/sign_in/passkey/options'),
    MESSAGES.signInFallback,
  )
  if ('error' in assertion) return { success: false, error: assertion.error }
  const { data, error, response } = await api.POST('/api/v1/users/sign_in/passkey', {
    body: { credential: assertion.credential },
  })
  if (!data)
    return { success: false, error: errorMessage(error, response, MESSAGES.signInFallback) }
  const token = bearerToken(response)
  if (!token) return { success: false, error: MESSAGES.noAuthorization }
  const mfaToken = response.headers.get('mfa-token')
  if (!mfaToken) return { success: false, error: MFA_MESSAGES.noMfaHeader }
  session.start(token, data.expires_at)
  session.setMfaToken(mfaToken)
  return { success: true }
}
