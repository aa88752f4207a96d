/**
 * The company admin's provisioning settings (/api/v1/company/{id}/scim and /roster): the SCIM
 * token for the identity provider, and the roster import for employers without SCIM.
 */
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type ScimStatus = Schemas['ScimStatusOut']
export type ScimTokenCreated = Schemas['ScimTokenOut']
export type RosterResult = Schemas['RosterOut']
export type RosterRow = Schemas['RosterRowOut']
export type RosterAction = 'preview' | 'apply'

export class ProvisioningApiError extends ApiError {
  override name = 'ProvisioningApiError'
}

/** The roster file size the server takes (5 MB). */
export const ROSTER_MAX_BYTES = 5 * 1024 * 1024

async function answered<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
  what: string,
): Promise<T> {
  const { data, error, response } = await request.catch((cause: unknown) => {
    console.error(`Failed to ${what}`, cause)
    throw new ProvisioningApiError(FALLBACK_ERROR, 0)
  })
  if (data === undefined) {
    throw new ProvisioningApiError(errorMessage(error, response), response.status)
  }
  return data
}

export function scimStatusQueryKey(companyId: number) {
  return ['company', companyId, 'scim'] as const
}

export function fetchScimStatus(companyId: number): Promise<ScimStatus> {
  return answered(
    api.GET('/api/v1/company/{company_id}/scim', {
      params: { path: { company_id: companyId } },
    }),
    'fetch the SCIM settings',
  )
}

export function scimTokenCreate(companyId: number): Promise<ScimTokenCreated> {
  return answered(
    api.POST('/api/v1/company/{company_id}/scim', {
      params: { path: { company_id: companyId } },
    }),
    'create a SCIM token',
  )
}

export async function scimTokenRevoke(companyId: number): Promise<void> {
  const { error, response } = await api
    .DELETE('/api/v1/company/{company_id}/scim', {
      params: { path: { company_id: companyId } },
    })
    .catch((cause: unknown) => {
      console.error('Failed to revoke the SCIM token', cause)
      throw new ProvisioningApiError(FALLBACK_ERROR, 0)
    })
  if (!response.ok) throw new ProvisioningApiError(errorMessage(error, response), response.status)
}

/** Sends the CSV for a preview (nothing changes) or to apply it (checked again first). */
export function rosterUpload(
  companyId: number,
  action: RosterAction,
  file: File,
): Promise<RosterResult> {
  const options = {
    params: { path: { company_id: companyId } },
    body: { file: file as unknown as string },
    bodySerializer: (body: { file: string }) => {
      const form = new FormData()
      form.append('file', body.file as unknown as Blob)
      return form
    },
  }
  return answered(
    action === 'preview'
      ? api.POST('/api/v1/company/{company_id}/roster/preview', options)
      : api.POST('/api/v1/company/{company_id}/roster/apply', options),
    `${action} the roster`,
  )
}
