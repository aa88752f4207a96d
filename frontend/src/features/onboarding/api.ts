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

export const onboardingAnswersQuery = queryOptions({
  queryKey: ['onboardingAnswers'],
  queryFn: async (): Promise<OnboardingAnswer[]> => {
    const { data } = await api.GET('/api/v1/users/onboarding')
    return data?.answers ?? []
  },
})
