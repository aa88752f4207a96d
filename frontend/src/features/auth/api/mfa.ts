/** The second factor's calls (spec §7 'Account'): send, verify and enrol. */
import { api, errorMessage } from '@/api/client'
import { session } from '@/lib/session'
import type { AccountResult } from './auth'

export const MFA_MESSAGES = {
  mfaVerifyFallback: 'Unable to verify MFA token',
  noMfaHeader: 'No MFA verification token received',
  sendOtpFallback: 'Unable to request MFA token at this time.',
  enrollFallback: 'Unable to enroll in MFA at this time.',
} as const

export async function sendOtp(): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/mfa/send-otp')
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MFA_MESSAGES.sendOtpFallback) }
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
    return { success: false, error: errorMessage(error, undefined, MFA_MESSAGES.mfaVerifyFallback) }
  }
  const mfaToken = response.headers.get('mfa-token')
  if (!mfaToken) return { success: false, error: MFA_MESSAGES.noMfaHeader }
  session.setMfaToken(mfaToken)
  return { success: true }
}

export async function enrollMfa(phoneDigits: string): Promise<AccountResult> {
  const { error, response } = await api.POST('/api/v1/mfa', {
    body: { mfa_number: phoneDigits },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, undefined, MFA_MESSAGES.enrollFallback) }
  }
  return { success: true }
}
