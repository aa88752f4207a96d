/**
 * Survey catalogue calls (spec §7 'Requests and surveys'): recommended request categories for
 * the Dashboard, all survey categories, and one category's request surveys.
 */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, type Schemas } from '@/api/client'
import { ApiError } from '@/lib/apiError'

export type RecommendedCategory = Schemas['RecommendedCategoryOut']
export type RequestSurvey = Schemas['RequestSurveyOut']
export type SurveyCategory = Schemas['SurveyCategoryOut']
export type CategoryRequestSurveys = Schemas['CategoryRequestSurveysOut']

/** Spec §9: the Dashboard shows the first 3 recommended categories, each with at most 3 surveys. */
export const DASHBOARD_CATEGORY_LIMIT = 3
export const SUGGESTED_SURVEYS_PER_CATEGORY = 3

export const surveyKeys = {
  all: ['surveys'] as const,
  recommended: () => ['surveys', 'recommended-categories'] as const,
  categories: () => ['surveys', 'categories'] as const,
  category: (id: number) => ['surveys', 'categories', id] as const,
}

/** A failed catalogue call, with its HTTP status (404 → not found state). */
export class SurveyApiError extends ApiError {
  override name = 'SurveyApiError'
}

export function isSurveyNotFound(error: unknown): boolean {
  return error instanceof SurveyApiError && (error.status === 404 || error.status === 422)
}

/** Spec §7: only for_alpha surveys are kept in recommended categories. */
export function keepAlphaSurveys(categories: RecommendedCategory[]): RecommendedCategory[] {
  return categories.map((category) => ({
    ...category,
    request_surveys: category.request_surveys.filter((survey) => survey.for_alpha),
  }))
}

export const recommendedCategoriesQuery = queryOptions({
  queryKey: surveyKeys.recommended(),
  queryFn: async (): Promise<RecommendedCategory[]> => {
    const { data, error, response } = await api.GET('/api/v1/recommended_request_categories')
    if (!data) {
      const failure = new SurveyApiError(errorMessage(error, response), response.status)
      console.error('Failed to fetch recommended request categories', failure)
      throw failure
    }
    return keepAlphaSurveys(data.recommended_request_categories ?? [])
  },
  staleTime: 5 * 60_000,
})

export const surveyCategoriesQuery = queryOptions({
  queryKey: surveyKeys.categories(),
  queryFn: async (): Promise<SurveyCategory[]> => {
    const { data, error, response } = await api.GET('/api/v1/survey_categories')
    if (!data) {
      const failure = new SurveyApiError(errorMessage(error, response), response.status)
      console.error('Failed to fetch survey categories', failure)
      throw failure
    }
    return data.survey_categories ?? []
  },
  staleTime: 5 * 60_000,
})

export function categoryRequestSurveysQuery(categoryId: number) {
  return queryOptions({
    queryKey: surveyKeys.category(categoryId),
    queryFn: async (): Promise<CategoryRequestSurveys> => {
      const { data, error, response } = await api.GET(
        '/api/v1/survey_categories/{category_id}/request_surveys',
        { params: { path: { category_id: categoryId } } },
      )
      if (!data) {
        const failure = new SurveyApiError(errorMessage(error, response), response.status)
        if (response.status !== 404) console.error('Failed to fetch request surveys', failure)
        throw failure
      }
      return data
    },
    staleTime: 5 * 60_000,
    retry: (count, error) => !isSurveyNotFound(error) && count < 1,
  })
}
