/**
 * The guided request flow's calls (spec §7 'Requests and surveys'): begin (or resume) a user
 * request survey, read its answers, fetch the next question, save an answer, submit.
 */
import { type ApiErrorBody, api, errorMessage, type Schemas } from '@/api/client'

export type QuestionItem = Schemas['QuestionItemOut']
export type NextItem = Schemas['NextItemOut']
export type SelectOption = Schemas['SelectOptionOut']
/** An answered question, with what editing it needs (its options and whether it is optional). */
export type AnsweredQuestion = Schemas['AnsweredQuestionOut']
export type SurveyRun = Omit<Schemas['UserRequestSurveyOut'], 'answers'> & {
  answers: AnsweredQuestion[]
}

/** A failed flow call: the server's text (when it sent one), the HTTP status and field errors. */
export class SurveyFlowError extends Error {
  readonly status: number
  readonly serverMessage: string | null
  readonly fieldErrors: Record<string, string[]>

  constructor(what: string, status: number, body: unknown) {
    const server = (body as ApiErrorBody | undefined) ?? {}
    super(`${what} (${status}): ${server.error ?? 'no details'}`)
    this.name = 'SurveyFlowError'
    this.status = status
    this.serverMessage = server.error ?? null
    this.fieldErrors = server.errors ?? {}
  }

  /** A 422 on the answer value: what the server says is wrong with it. */
  get valueError(): string | null {
    if (this.status !== 422) return null
    return this.fieldErrors.value?.[0] ?? this.serverMessage
  }
}

function fail(what: string, response: Response, body: unknown): never {
  const error = new SurveyFlowError(what, response.status, body)
  console.error(what, error, errorMessage(body, response))
  throw error
}

export interface BegunRun {
  id: number
  /** Answers the run already had: more than 0 when an unsubmitted run was resumed. */
  resumedAnswers: number
}

/**
 * POST /request_surveys/{id}/user_request_surveys with for_alpha true: begins or resumes the
 * user's run of the survey; `startOver` discards the unsubmitted one first. With `offeringId`
 * ('Get help' on an offering) only the run begun for that offering is resumed.
 */
export async function beginSurvey(
  surveyId: number,
  { startOver = false, offeringId }: { startOver?: boolean; offeringId?: number } = {},
): Promise<BegunRun> {
  await discarding
  const { data, error, response } = await api.POST(
    '/api/v1/request_surveys/{survey_id}/user_request_surveys',
    {
      params: { path: { survey_id: surveyId } },
      body: {
        for_alpha: true,
        start_over: startOver,
        ...(offeringId === undefined ? {} : { offering_id: offeringId }),
      },
    },
  )
  if (!data) fail('Failed to begin survey', response, error)
  return { id: data.user_request_survey.id, resumedAnswers: data.resumed_answers ?? 0 }
}

/**
 * A discard on its way: the next begin waits for it, so a request started again right after
 * 'Yes, cancel' cannot resume the run being discarded.
 */
let discarding: Promise<unknown> = Promise.resolve()

/** Discards an unsubmitted run and its answers (the user cancelled the request). */
export function discardSurvey(runId: number): Promise<void> {
  const done = (async () => {
    const { error, response } = await api.DELETE('/api/v1/user_request_surveys/{run_id}', {
      params: { path: { run_id: runId } },
    })
    if (!response.ok) fail('Failed to discard survey', response, error)
  })()
  discarding = done.catch(() => undefined)
  return done
}

export async function fetchRun(runId: number): Promise<SurveyRun> {
  const { data, error, response } = await api.GET('/api/v1/user_request_surveys/{run_id}', {
    params: { path: { run_id: runId } },
  })
  if (!data) fail('Failed to fetch survey answers', response, error)
  return data
}

/** The next question, or null when the survey is complete. */
export async function fetchNextItem(runId: number): Promise<NextItem | null> {
  const { data, error, response } = await api.GET(
    '/api/v1/user_request_surveys/{run_id}/next_screen_item',
    { params: { path: { run_id: runId } } },
  )
  if (!data) fail('Failed to fetch next question', response, error)
  return data.next_item ?? null
}

/** Answers (or re-answers) a question; null skips an optional one. */
export async function saveAnswer(
  runId: number,
  questionId: number,
  value: string | null,
): Promise<void> {
  const { data, error, response } = await api.POST(
    '/api/v1/user_request_surveys/{run_id}/user_request_answers',
    {
      params: { path: { run_id: runId } },
      body: {
        user_request_answer: {
          object_satisfied_id: questionId,
          object_satisfied_type: 'Datum',
          value,
        },
      },
    },
  )
  if (!data) fail('Failed to save answer', response, error)
}

/** Creates the request from the answers (idempotent); returns the request's id. */
export async function submitSurvey(runId: number): Promise<number> {
  const { data, error, response } = await api.POST('/api/v1/user_request_surveys/{run_id}/submit', {
    params: { path: { run_id: runId } },
  })
  if (!data) fail('Failed to submit survey', response, error)
  return data.request_id
}
