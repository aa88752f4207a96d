/**
 * Company sign-in (SSO): whether an email's domain or a company slug has one, and the end of
 * it: the single-use code the server put in the sign-in page's fragment, exchanged for the
 * session exactly as a password sign-in answers (token, `expires_at`, MFA flags).
 */
import { api, errorMessage } from '@/api/client'
import { session } from '@/lib/session'
import { type AccountResult, bearerToken, MESSAGES } from './auth'

export interface CompanySignIn {
  companyName: string
  /** Where the browser goes to start it (at the app's public address, which sends it on to
   * the company's provider and later takes it back). */
  startUrl: string
}

export async function discoverCompanySignIn(query: {
  email?: string
  company?: string
}): Promise<CompanySignIn | null> {
  const { data } = await api.GET('/api/v1/sso/discover', { params: { query } })
  if (!data?.available || !data.start_url) return null
  return { companyName: data.company_name ?? '', startUrl: data.start_url }
}

export async function finishCompanySignIn(code: string): Promise<AccountResult> {
  const { data, error, response } = await api.POST('/api/v1/sso/exchange', { body: { code } })
  if (!response.ok || !data) {
    return { success: false, error: errorMessage(error, response, MESSAGES.signInFallback) }
  }
  const token = bearerToken(response)
  if (!token || !data.expires_at) return { success: false, error: MESSAGES.noAuthorization }
  session.start(token, data.expires_at)
  // The company's provider did MFA: the session's MFA step is already passed.
  const mfaToken = response.headers.get('mfa-token')
  if (mfaToken) session.setMfaToken(mfaToken)
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

/** The sign-in page's fragment from the server: `#sso=<code>` or `#sso-error=<message>`. */
export function companySignInReturn(hash: string): { code?: string; error?: string } | null {
  const values = new URLSearchParams(hash.replace(/^#/, ''))
  const code = values.get('sso')
  const error = values.get('sso-error')
  if (!code && !error) return null
  return { code: code ?? undefined, error: error ?? undefined }
}
