/** The company's activity log (issue 27): its own administrative events, never anyone's
 * request activity. Only the members page's lazy chunk imports it. */
import { infiniteQueryOptions } from '@tanstack/react-query'
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import { MembersApiError } from './api'

export type CompanyAuditEvent = Schemas['CompanyAuditEventOut']
export type CompanyAuditPage = Schemas['CompanyAuditPageOut']

async function fetchAuditPage(companyId: number, before: number | null): Promise<CompanyAuditPage> {
  const { data, error, response } = await api
    .GET('/api/v1/company/{company_id}/audit', {
      params: { path: { company_id: companyId }, query: { before } },
    })
    .catch(() => {
      throw new MembersApiError(FALLBACK_ERROR, 0)
    })
  if (data === undefined) throw new MembersApiError(errorMessage(error, response), response.status)
  return data
}

export function companyAuditQuery(companyId: number) {
  return infiniteQueryOptions({
    queryKey: ['company', companyId, 'audit'],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam }) => fetchAuditPage(companyId, pageParam),
    getNextPageParam: (page: CompanyAuditPage) => page.next_before,
  })
}

const ACTION_LABELS: Record<string, string> = {
  'company.report.viewed': 'Viewed the company report',
  'company.report.exported': 'Exported the company report (CSV)',
  'company.member.deactivated': 'Deactivated a member',
  'company.member.reactivated': 'Reactivated a member',
  'company.invite.sent': 'Created an invite link',
  'company.invite.revoked': 'Revoked an invite link',
  'company.scim_token.changed': 'Changed the SCIM token',
  'company.roster.imported': 'Imported the roster',
  'company.sso.changed': 'Changed company sign-in',
  'company.settings.changed': 'Changed company settings',
  'role.changed': 'Changed a company admin role',
}

export const actionLabel = (action: string) => ACTION_LABELS[action] ?? action
