/** The employee's data (issue 27): 'Download my data' and a request's retention date. */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, type Schemas } from '@/api/client'

export type DataExport = Schemas['DataExportOut']
export type RequestRetention = Schemas['RequestRetentionOut']

export const privacyKeys = {
  dataExport: ['privacy', 'data-export'] as const,
  retention: (requestId: number) => ['privacy', 'retention', requestId] as const,
}

/** A failed call: the server's message for a person. */
export class PrivacyApiError extends Error {}

/** The latest export's state; polled while it is being built. */
export function dataExportQuery() {
  return queryOptions({
    queryKey: privacyKeys.dataExport,
    queryFn: async (): Promise<DataExport> => {
      const { data, error, response } = await api.GET('/api/v1/users/data_export')
      if (!data) throw new PrivacyApiError(errorMessage(error, response))
      return data
    },
    refetchInterval: (query) =>
      isBuilding(query.state.data?.status) ? DATA_EXPORT_POLL_MS : false,
  })
}

export const DATA_EXPORT_POLL_MS = 5000

export function isBuilding(status: string | undefined): boolean {
  return status === 'pending' || status === 'running'
}

/** Asks for an export (a 409 while one is being built: its message says so). */
export async function dataExportStart(): Promise<DataExport> {
  const { data, error, response } = await api.POST('/api/v1/users/data_export')
  if (!data) throw new PrivacyApiError(errorMessage(error, response))
  return data
}

/** Downloads the zip of the emailed link (the request carries the session's auth headers);
 * the token goes in the body, never in an address a server or proxy logs. */
export async function dataExportDownload(token: string): Promise<void> {
  const { data, error, response } = await api.POST('/api/v1/users/data_export/download', {
    body: { token },
    parseAs: 'blob',
  })
  if (!data) throw new PrivacyApiError(errorMessage(error, response))
  const url = URL.createObjectURL(data as Blob)
  const link = document.createElement('a')
  link.href = url
  link.download = 'my-data.zip'
  document.body.append(link)
  link.click()
  link.remove()
  setTimeout(() => URL.revokeObjectURL(url), 1000)
}

export function requestRetentionQuery(requestId: number) {
  return queryOptions({
    queryKey: privacyKeys.retention(requestId),
    queryFn: async (): Promise<RequestRetention> => {
      const { data, error, response } = await api.GET('/api/v1/requests/{request_id}/retention', {
        params: { path: { request_id: requestId } },
      })
      if (!data) throw new PrivacyApiError(errorMessage(error, response))
      return data
    },
  })
}
