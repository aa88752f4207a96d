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

export async function fetchCompanyReport(): Promise<CompanyReport> {
  const answer = await api
    .GET('/api/v1/company/report', { params: { query: { months: REPORT_MONTHS } } })
    .catch((cause: unknown) => {
      console.error('Failed to fetch the company report', cause)
      throw new ReportApiError(FALLBACK_ERROR, 0)
    })
  const { data, error, response } = answer
  if (!data) throw new ReportApiError(errorMessage(error, response), response.status)
  return data
}

export function companyReportQuery() {
  return queryOptions({
    queryKey: ['company', 'report', REPORT_MONTHS],
    queryFn: fetchCompanyReport,
    retry: (count, error) =>
      !(error instanceof ReportApiError && error.status === 403) && count < 1,
  })
}

/** Downloads the report as CSV (the request carries the session's auth headers). */
export async function downloadReportCsv(): Promise<void> {
  const { data, error, response } = await api.GET('/api/v1/company/report.csv', {
    params: { query: { months: REPORT_MONTHS } },
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
    queryFn: async () => {
      const { data } = await api.GET('/api/v1/company/access')
      return data?.companies ?? []
    },
    staleTime: 5 * 60_000,
  })
}
