/** The employee's ratings: of a request from its page, and by the completion email's link. */
import { api, errorMessage, FALLBACK_ERROR, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type RatingState = Schemas['RatingStateOut']
export type Rating = Schemas['RatingOut']
export type LinkRating = Schemas['LinkRatingOut']

export class RatingApiError extends ApiError {
  override name = 'RatingApiError'
}

type Answer<T> = { data?: T; error?: unknown; response: Response }

async function call<T>(
  label: string,
  run: () => Promise<Answer<T>>,
  ok: number | readonly number[],
): Promise<T> {
  let answer: Answer<T>
  try {
    answer = await run()
  } catch (cause) {
    console.error(label, cause)
    throw new RatingApiError(FALLBACK_ERROR, 0)
  }
  const { data, error, response } = answer
  const expected = typeof ok === 'number' ? [ok] : ok
  if (!expected.includes(response.status) || data === undefined) {
    throw new RatingApiError(errorMessage(error, response), response.status)
  }
  return data
}

export const ratingKeys = {
  request: (id: number) => ['rating', id] as const,
}

export function fetchRequestRating(id: number): Promise<RatingState> {
  return call(
    'rating',
    () => api.GET('/api/v1/requests/{request_id}/rating', { params: { path: { request_id: id } } }),
    200,
  )
}

export function rateRequest(id: number, score: number, comment: string): Promise<RatingState> {
  return call(
    'rate',
    () =>
      api.POST('/api/v1/requests/{request_id}/rating', {
        params: { path: { request_id: id } },
        body: { score, comment },
      }),
    201,
  )
}

/**
 * Records the link's rating (201, with a key for the optional comment), or answers the rating
 * the request already has, unchanged (200, `already_rated`, no key).
 */
export function rateByLink(token: string, score: number): Promise<LinkRating> {
  return call(
    'rate by link',
    () => api.POST('/api/v1/ratings/link', { body: { token, score } }),
    [200, 201],
  )
}

export function commentByLink(token: string, commentKey: string, comment: string) {
  return call(
    'rating comment',
    () =>
      api.POST('/api/v1/ratings/link/comment', {
        body: { token, comment_key: commentKey, comment },
      }),
    200,
  )
}

export function commentOnRating(id: number, comment: string): Promise<RatingState> {
  return call(
    'rating comment',
    () =>
      api.PATCH('/api/v1/requests/{request_id}/rating', {
        params: { path: { request_id: id } },
        body: { comment },
      }),
    200,
  )
}
