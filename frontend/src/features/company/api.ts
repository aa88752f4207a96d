/** The company admin's report (/api/v1/company/...): aggregates only. */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type CompanyReport = Schemas['CompanyReportOut']
export type ReportMonth = Schemas['MonthOut']

export class ReportApiError extends ApiError {
  override name = 'ReportApiError'
}

export const REPORT_MONTHS = 12

/** The report of `companyId`, or of the admin's first company. */
export async function fetchCompanyReport(companyId?: number): Promise<CompanyReport> {
  const answer = await api
    .GET('/api/v1/company/report', {
      params: { query: { months: REPORT_MONTHS, company: companyId } },
    })
    .catch((cause: unknown) => {
      console.error('Failed to fetch the company report', cause)
      throw new ReportApiError(FALLBACK_ERROR, 0)
    })
  const { data, error, response } = answer
  if (!data) throw new ReportApiError(errorMessage(error, response), response.status)
  return data
}

export function companyReportQuery(companyId?: number) {
  return queryOptions({
    queryKey: ['company', 'report', REPORT_MONTHS, companyId ?? null],
    queryFn: () => fetchCompanyReport(companyId),
    // Another company's report loads under the last one, so the company picker keeps the focus.
    placeholderData: (previous) => previous,
    retry: (count, error) =>
      !(error instanceof ReportApiError && error.status === 403) && count < 1,
  })
}

/** Downloads the report as CSV (the request carries the session's auth headers). */
export async function downloadReportCsv(companyId: number): Promise<void> {
  const { data, error, response } = await api.GET('/api/v1/company/report.csv', {
    params: { query: { months: REPORT_MONTHS, company: companyId } },
    parseAs: 'blob',
  })
  if (!data) throw new ReportApiError(errorMessage(error, response), response.status)
  const name =
    /filename="([^"]+)"/.exec(response.headers.get('Content-Disposition') ?? '')?.[1] ??
    'company-report.csv'
  const url = URL.createObjectURL(data as Blob)
  const link = document.createElement('a')
  link.href = url
  link.download = name
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

/** The companies whose report the signed-in person may see (empty for most people). */
export function companyAccessQuery() {
  return queryOptions({
    queryKey: ['company', 'access'],
    // A failure is an error, not "no company": the members page must not say "admins only".
    queryFn: async () =>
      (await answered(api.GET('/api/v1/company/access'), 'fetch the company access')).companies,
    staleTime: 5 * 60_000,
  })
}

// ------------------------------------------------------------------------- the members page

export type MembersPage = Schemas['MembersPageOut']
export type Member = Schemas['MemberOut']
export type MemberStatus = Member['status']
export type Invite = Schemas['InviteOut']
export type Invites = Schemas['InvitesOut']
export type InviteCreated = Schemas['InviteCreatedOut']
export type InviteValues = Schemas['InviteIn']

export class MembersApiError extends ApiError {
  override name = 'MembersApiError'
}

/** The answer's data, or a MembersApiError with the server's message (network: fallback). */
async function answered<T>(
  request: Promise<{ data?: T; error?: unknown; response: Response }>,
  what: string,
): Promise<T> {
  const { data, error, response } = await request.catch((cause: unknown) => {
    console.error(`Failed to ${what}`, cause)
    throw new MembersApiError(FALLBACK_ERROR, 0)
  })
  if (data === undefined) throw new MembersApiError(errorMessage(error, response), response.status)
  return data
}

export interface MembersFilter {
  search: string
  status: MemberStatus | ''
  page: number
}

export function membersQuery(companyId: number, filter: MembersFilter) {
  return queryOptions({
    queryKey: ['company', companyId, 'members', filter],
    queryFn: () =>
      answered(
        api.GET('/api/v1/company/{company_id}/members', {
          params: {
            path: { company_id: companyId },
            query: {
              search: filter.search || undefined,
              status: filter.status || undefined,
              page: filter.page,
            },
          },
        }),
        'fetch the members',
      ),
    placeholderData: (previous) => previous,
    retry: (count, error) => !(error instanceof MembersApiError && error.status < 500) && count < 1,
  })
}

export function memberAccessChange(
  companyId: number,
  memberId: number,
  change: 'deactivate' | 'reactivate',
): Promise<Member> {
  const params = { params: { path: { company_id: companyId, member_id: memberId } } }
  return answered(
    change === 'deactivate'
      ? api.POST('/api/v1/company/{company_id}/members/{member_id}/deactivate', params)
      : api.POST('/api/v1/company/{company_id}/members/{member_id}/reactivate', params),
    `${change} a member`,
  )
}

export function invitesQuery(companyId: number) {
  return queryOptions({
    queryKey: ['company', companyId, 'invites'],
    queryFn: () =>
      answered(
        api.GET('/api/v1/company/{company_id}/invites', {
          params: { path: { company_id: companyId } },
        }),
        'fetch the invite links',
      ),
  })
}

export function inviteCreate(companyId: number, values: InviteValues): Promise<InviteCreated> {
  return answered(
    api.POST('/api/v1/company/{company_id}/invites', {
      params: { path: { company_id: companyId } },
      body: values,
    }),
    'create an invite link',
  )
}

export function inviteRevoke(companyId: number, inviteId: number): Promise<Invite> {
  return answered(
    api.POST('/api/v1/company/{company_id}/invites/{invite_id}/revoke', {
      params: { path: { company_id: companyId, invite_id: inviteId } },
    }),
    'revoke an invite link',
  )
}
