/** Onboarding answers (spec §7 'Account' onboarding): read and saved by the three steps. */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage, fieldErrors } from '@/api/client'

export interface SaveResult {
  success: boolean
  error?: string
  errors?: Record<string, string[]>
}

export interface OnboardingAnswer {
  answer_id: number
  value?: unknown
}

export async function saveOnboardingAnswers(answers: OnboardingAnswer[]): Promise<SaveResult> {
  const { error, response } = await api.POST('/api/v1/users/onboarding', {
    body: { answers },
  })
  if (!response.ok) {
    return { success: false, error: errorMessage(error, response), errors: fieldErrors(error) }
  }
  return { success: true }
}

/** The person's answers. A failed read is an error, never an empty list: a form filled from
 * an empty list and saved would erase what is stored. */
export const onboardingAnswersQuery = queryOptions({
  queryKey: ['onboardingAnswers'],
  queryFn: async (): Promise<OnboardingAnswer[]> => {
    const { data, error, response } = await api.GET('/api/v1/users/onboarding')
    if (!data) throw new Error(errorMessage(error, response))
    return data.answers ?? []
  },
})

export const ANSWERS_FAILED = 'We couldn’t load your answers.'
