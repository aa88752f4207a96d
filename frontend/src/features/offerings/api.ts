/**
 * Benefits & Offers calls (spec §7 'Offerings') as React Query hooks.
 *
 * - GET /api/v1/offerings?types=benefit,product[&limit=N][&prefer_featured=true]
 * - GET /api/v1/offerings/{offering_id} (404 when the offering is not visible to the user)
 * - GET /api/v1/offering_categories
 *
 * "Offering fetches are debounced or throttled at 1000 ms" (spec §7, §9) is met in two ways:
 * 1. Every offering query function is throttled per query: a fetch that starts less than
 *    OFFERING_FETCH_DELAY_MS after the previous response for the same query waits out the rest
 *    of that window first (trailing edge), and React Query shares one in-flight request between
 *    every caller of the same key. So a burst of refetches (window focus, remounts, several
 *    broken logos at once) reaches the server at most once a second per list or detail.
 * 2. staleTime is the same 1000 ms, so a remount within a second reuses the cached result
 *    instead of fetching again.
 */
import {
  type QueryFunctionContext,
  type QueryKey,
  queryOptions,
  useQuery,
  useQueryClient,
} from '@tanstack/react-query'
import { useCallback } from 'react'
import { api, errorMessage, type Schemas } from '@/api/client'

export type Offering = Schemas['OfferingOut']
export type OfferingDetail = Schemas['OfferingDetailOut']
export type OfferingSection = Schemas['SectionOut']
export type OfferingSectionItem = Schemas['SectionItemOut']
export type OfferingCategory = Schemas['OfferingCategoryOut']
export type OfferingType = Offering['type']

/** Spec §9: offering fetch delay. */
export const OFFERING_FETCH_DELAY_MS = 1000
/** Spec §9: featured offerings limit. */
export const FEATURED_LIMIT = 6

export interface OfferingListParams {
  types: OfferingType[]
  limit?: number
  preferFeatured?: boolean
}

export const offeringKeys = {
  all: ['offerings'] as const,
  lists: () => [...offeringKeys.all, 'list'] as const,
  list: (params: OfferingListParams) =>
    [
      ...offeringKeys.lists(),
      {
        types: [...params.types].sort().join(','),
        limit: params.limit ?? null,
        preferFeatured: params.preferFeatured ?? false,
      },
    ] as const,
  detail: (id: number) => [...offeringKeys.all, 'detail', id] as const,
  categories: () => ['offering_categories'] as const,
}

/** The offering does not exist or is not visible to the signed-in user. */
export class OfferingNotFoundError extends Error {
  constructor() {
    super('Offering not found')
    this.name = 'OfferingNotFoundError'
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason)
      return
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort)
      resolve()
    }, ms)
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal?.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}

/**
 * Waits until OFFERING_FETCH_DELAY_MS have passed since this query's previous response
 * (success or error). The first fetch of a query starts at once.
 */
export async function waitForFetchWindow(
  { client, queryKey, signal }: Pick<QueryFunctionContext, 'client' | 'queryKey' | 'signal'>,
  now: number = Date.now(),
): Promise<void> {
  const state = client.getQueryState(queryKey as QueryKey)
  const last = Math.max(state?.dataUpdatedAt ?? 0, state?.errorUpdatedAt ?? 0)
  const wait = last + OFFERING_FETCH_DELAY_MS - now
  if (last > 0 && wait > 0) await sleep(wait, signal)
}

/** Array query parameters go out comma-separated: `types=benefit,product` (spec §7). */
const commaSeparated = { array: { style: 'form', explode: false } } as const

export async function fetchOfferings(
  params: OfferingListParams,
  signal?: AbortSignal,
): Promise<Offering[]> {
  const { data, error, response } = await api.GET('/api/v1/offerings', {
    params: {
      query: {
        types: params.types,
        ...(params.limit ? { limit: params.limit } : {}),
        ...(params.preferFeatured ? { prefer_featured: true } : {}),
      },
    },
    querySerializer: commaSeparated,
    signal,
  })
  if (!data) throw new Error(errorMessage(error, response, 'Failed to fetch offerings'))
  return data.offerings
}

export async function fetchOffering(id: number, signal?: AbortSignal): Promise<OfferingDetail> {
  const { data, error, response } = await api.GET('/api/v1/offerings/{offering_id}', {
    params: { path: { offering_id: id } },
    signal,
  })
  if (response.status === 404) throw new OfferingNotFoundError()
  if (!data) throw new Error(errorMessage(error, response, 'Failed to fetch offering'))
  return data.offering
}

export async function fetchOfferingCategories(signal?: AbortSignal): Promise<OfferingCategory[]> {
  const { data, error, response } = await api.GET('/api/v1/offering_categories', { signal })
  if (!data) throw new Error(errorMessage(error, response, 'Failed to fetch offering categories'))
  return data.offering_categories
}

/** Every offering of the user: GET types=benefit,product (the all page filters client-side). */
export const ALL_OFFERINGS: OfferingListParams = { types: ['benefit', 'product'] }
/** Featured benefits (falls back to all benefits when none is featured). */
export const FEATURED_BENEFITS: OfferingListParams = {
  types: ['benefit'],
  limit: FEATURED_LIMIT,
  preferFeatured: true,
}
/** Featured partner offers (falls back to all offers when none is featured). */
export const FEATURED_PRODUCTS: OfferingListParams = {
  types: ['product'],
  limit: FEATURED_LIMIT,
  preferFeatured: true,
}

export function offeringsQuery(params: OfferingListParams) {
  return queryOptions({
    queryKey: offeringKeys.list(params),
    queryFn: async (context) => {
      await waitForFetchWindow(context)
      return fetchOfferings(params, context.signal)
    },
    staleTime: OFFERING_FETCH_DELAY_MS,
  })
}

export function useOfferings(params: OfferingListParams) {
  return useQuery(offeringsQuery(params))
}

export function useOffering(id: number | null) {
  return useQuery({
    queryKey: offeringKeys.detail(id ?? -1),
    queryFn: async (context) => {
      await waitForFetchWindow(context)
      return fetchOffering(id as number, context.signal)
    },
    enabled: id !== null,
    staleTime: OFFERING_FETCH_DELAY_MS,
    // A 404 will not change on retry; other failures get the app's single retry.
    retry: (failureCount, error) => !(error instanceof OfferingNotFoundError) && failureCount < 1,
  })
}

export function useOfferingCategories() {
  return useQuery({
    queryKey: offeringKeys.categories(),
    queryFn: ({ signal }) => fetchOfferingCategories(signal),
    staleTime: 5 * 60_000,
  })
}

/**
 * Fetches the catalogue on screen again (every list and details, and the categories): for when
 * the server says an offering shown is gone for the user, so it disappears.
 */
export function useRefreshCatalogue(): () => void {
  const queryClient = useQueryClient()
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: offeringKeys.all })
    void queryClient.invalidateQueries({ queryKey: offeringKeys.categories() })
  }, [queryClient])
}
