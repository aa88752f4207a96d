/**
 * Second factors beyond the SMS code: authenticator apps, passkeys and recovery codes.
 * Adding a factor in a session that had none passes its MFA step: the answer then carries the
 * `mfa-token` header, stored like the one from `POST /mfa/verify`.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, fieldErrors, mfaStepCalls, type Schemas } from '@/api/client'
import { passkeyFailureMessage } from '@/lib/passkeys'
import { session } from '@/lib/session'

export type MfaFactor = Schemas['MfaFactorOut']
export type TotpEnrolment = Schemas['TotpEnrolmentOut']

export const FACTOR_LABELS: Record<string, string> = {
  passkey: 'Passkey',
  totp: 'Authenticator app',
  sms: 'Text message',
}

export const mfaFactorsQuery = queryOptions({
  queryKey: ['mfa', 'factors'],
  queryFn: async () => {
    const { data, error, response } = await api.GET('/api/v1/mfa/factors')
    if (!data) throw new Error(errorMessage(error, response))
    return data
  },
})

/** A failure's `confirmFirst`: adding a sign-in method needs the person to confirm it is
 * them first (the session's recent proof lapsed: `POST /mfa/confirm`, then try again). */
export type Outcome<T = undefined> =
  | { ok: true; value: T }
  | { ok: false; error: string; confirmFirst?: boolean }

function addFailed(error: unknown, response: Response): Outcome<never> {
  return {
    ok: false,
    error: errorMessage(error, response),
    confirmFirst: 'confirm' in fieldErrors(error),
  }
}

function keepMfaToken(response: Response) {
  const mfaToken = response.headers.get('mfa-token')
  if (mfaToken) session.setMfaToken(mfaToken)
}

/** A factor just added: its recovery codes when new, and the session's MFA token when the
 * session had not passed an MFA step yet (stored with `session.setMfaToken`). */
export interface Added {
  recoveryCodes: string[] | null
  mfaToken: string | null
}

/**
 * Runs a call that may add the session's first factor. Until it has answered and its caller
 * has stored the MFA token (in the same turn), another call's 'MFA authentication required'
 * may be about the session before the factor, and changes nothing (client.ts).
 */
async function passingMfaStep<T>(call: () => Promise<T>): Promise<T> {
  mfaStepCalls.pending++
  try {
    return await call()
  } finally {
    setTimeout(() => mfaStepCalls.pending--)
  }
}

export async function totpEnrolStart(): Promise<Outcome<TotpEnrolment>> {
  const { data, error, response } = await api.POST('/api/v1/mfa/totp')
  if (!data) return addFailed(error, response)
  return { ok: true, value: data }
}

/** Confirms the app with its first code (the caller stores the MFA token it may return). */
export async function totpEnrolConfirm(
  factorId: number,
  code: string,
  name: string,
): Promise<Outcome<Added>> {
  const { data, error, response } = await passingMfaStep(() =>
    api.POST('/api/v1/mfa/totp/{factor_id}/confirm', {
      params: { path: { factor_id: factorId } },
      body: { code, name },
    }),
  )
  if (!data) return { ok: false, error: errorMessage(error, response) }
  return {
    ok: true,
    value: {
      recoveryCodes: data.recovery_codes ?? null,
      mfaToken: response.headers.get('mfa-token'),
    },
  }
}

/** Whether this browser can create passkeys at all. */
export function passkeysSupported(): boolean {
  return typeof window !== 'undefined' && typeof window.PublicKeyCredential === 'function'
}

function passkeyError(error: unknown): string {
  if (error instanceof Error && error.name === 'InvalidStateError') {
    return 'This device already has a passkey for your account.'
  }
  return passkeyFailureMessage(
    error,
    'We couldn’t create a passkey on this device. Please try again.',
  )
}

/** Creates a passkey on this device and registers it (the WebAuthn library loads on demand);
 * without a name the server numbers it ('Passkey 2'). */
export async function passkeyRegister(name: string): Promise<Outcome<string[] | null>> {
  const options = await api.POST('/api/v1/mfa/passkeys/options')
  if (!options.data) return addFailed(options.error, options.response)
  let credential: unknown
  try {
    const { startRegistration } = await import('@simplewebauthn/browser')
    credential = await startRegistration({
      // biome-ignore lint/suspicious/noExplicitAny: the server's options are the library's JSON.
      optionsJSON: options.data.options as any,
    })
  } catch (error) {
    return { ok: false, error: passkeyError(error) }
  }
  const { data, error, response } = await passingMfaStep(async () => {
    const answer = await api.POST('/api/v1/mfa/passkeys', {
      body: { credential: credential as Record<string, unknown>, name },
    })
    keepMfaToken(answer.response)
    return answer
  })
  if (!data) return { ok: false, error: errorMessage(error, response) }
  return { ok: true, value: data.recovery_codes ?? null }
}

export interface FreshCheck {
  password?: string
  code?: string
}

export async function factorRemove(factorId: string, check: FreshCheck): Promise<Outcome> {
  const { data, error, response } = await api.POST('/api/v1/mfa/factors/{factor_id}/remove', {
    params: { path: { factor_id: factorId } },
    body: { password: check.password ?? '', code: check.code ?? '' },
  })
  if (!data) return { ok: false, error: errorMessage(error, response) }
  return { ok: true, value: undefined }
}

/** Proves the person again in this session (password or code): for 15 minutes it may add a
 * sign-in method (`add_needs_confirm` in the factor list). */
export async function sessionConfirm(check: FreshCheck): Promise<Outcome> {
  const { data, error, response } = await api.POST('/api/v1/mfa/confirm', {
    body: { password: check.password ?? '', code: check.code ?? '' },
  })
  if (!data) return { ok: false, error: errorMessage(error, response) }
  return { ok: true, value: undefined }
}

export async function recoveryCodesRegenerate(check: FreshCheck): Promise<Outcome<string[]>> {
  const { data, error, response } = await api.POST('/api/v1/mfa/recovery-codes', {
    body: { password: check.password ?? '', code: check.code ?? '' },
  })
  if (!data?.recovery_codes) return { ok: false, error: errorMessage(error, response) }
  return { ok: true, value: data.recovery_codes }
}

/** The recovery codes as a text file the user can keep. */
export function recoveryCodesFile(codes: string[], productName: string): Blob {
  const text = [
    `${productName} recovery codes`,
    '',
    'Each code signs you in once when you cannot use your usual second step.',
    'Keep them somewhere safe.',
    '',
    ...codes,
    '',
  ].join('\n')
  return new Blob([text], { type: 'text/plain' })
}
