/**
 * What the web app shows from the server's configuration (README: Configuration): the terms of
 * use and privacy policy addresses (TERMS_URL, PRIVACY_URL) linked from sign-up and the footer.
 * Asked once per visit; the API answers from any origin the app is served on.
 */
import { queryOptions, useQuery } from '@tanstack/react-query'
import { api, type Schemas } from '@/api/client'

export type Site = Schemas['SiteOut']

export const siteQuery = queryOptions({
  queryKey: ['site'],
  queryFn: async (): Promise<Site> => {
    const { data } = await api.GET('/api/v1/site')
    if (!data) throw new Error('Failed to fetch the site settings')
    return data
  },
  staleTime: Number.POSITIVE_INFINITY,
  retry: 2,
})

/** The terms of use and privacy policy addresses, once the server has named them. */
export function useLegalLinks(): Site | undefined {
  return useQuery(siteQuery).data
}
