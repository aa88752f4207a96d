/**
 * The company admin's company sign-in (SSO) settings (/api/v1/company/{id}/sso): the identity
 * provider (OIDC or SAML), the attribute mapping and the switches; and the test sign-in, whose
 * result comes back to the members page as `#sso-test=<code>` (or `#sso-test-error=`).
 */
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type SsoSettingsData = Schemas['SsoSettingsOut']
export type SsoSettingsValues = Schemas['SsoSettingsIn']
export type SsoTestResult = Schemas['TestResultOut']

export class SsoApiError extends ApiError {
  override name = 'SsoApiError'
  constructor(
    message: string,
    status: number,
    readonly errors: Record<string, string[]> = {},
  ) {
    super(message, status)
  }
}

async function answered<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
): Promise<T> {
  const { data, error, response } = await request.catch(() => {
    throw new SsoApiError(FALLBACK_ERROR, 0)
  })
  if (data === undefined) {
    const errors = (error as { errors?: Record<string, string[]> } | undefined)?.errors
    throw new SsoApiError(errorMessage(error, response), response.status, errors)
  }
  return data
}

export function ssoSettingsQueryKey(companyId: number) {
  return ['company', companyId, 'sso'] as const
}

export function fetchSsoSettings(companyId: number): Promise<SsoSettingsData> {
  return answered(
    api.GET('/api/v1/company/{company_id}/sso', { params: { path: { company_id: companyId } } }),
  )
}

export function saveSsoSettings(
  companyId: number,
  values: SsoSettingsValues,
): Promise<SsoSettingsData> {
  return answered(
    api.PUT('/api/v1/company/{company_id}/sso', {
      params: { path: { company_id: companyId } },
      body: values,
    }),
  )
}

/** The address that takes the admin's browser through the provider for a test sign-in. */
export async function startSsoTest(companyId: number): Promise<string> {
  const { url } = await answered(
    api.POST('/api/v1/company/{company_id}/sso/test', {
      params: { path: { company_id: companyId } },
    }),
  )
  return url
}

/** What the provider said in a test sign-in (nobody is signed in by it). */
export async function finishSsoTest(code: string): Promise<SsoTestResult> {
  const answer = await answered(api.POST('/api/v1/sso/exchange', { body: { code } }))
  if (!answer.test_result) throw new SsoApiError(FALLBACK_ERROR, 0)
  return answer.test_result
}
