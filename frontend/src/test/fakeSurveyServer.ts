/**
 * An in-memory survey run behind MSW for the request drawer tests: it answers the §7 flow
 * calls the way the backend does (next unanswered question, display values, idempotent submit).
 */
import { HttpResponse, http } from 'msw'
import { apiUrl } from '@/test/server'

export interface FakeQuestion {
  id: number
  label: string
  type: string
  optional?: boolean
  options?: { label: string; value: string }[]
  universal_answer?: string | null
}

export const STORAGE_URL = 'https://storage.example.test/put'

export const QUESTIONS: FakeQuestion[] = [
  { id: 11, label: 'What do you need help with?', type: 'TextInput' },
  { id: 12, label: 'Anything else we should know?', type: 'MultilineTextInput', optional: true },
  {
    id: 13,
    label: 'What is the best phone number to reach you?',
    type: 'PhoneNumberInput',
    universal_answer: '5551234567',
  },
  {
    id: 14,
    label: 'Which email should we use?',
    type: 'ManagedEmailInput',
    universal_answer: 'jane.doe@example.com',
  },
  {
    id: 15,
    label: 'How soon do you need this?',
    type: 'SingleSelectInput',
    options: [
      { label: 'This week', value: 'this_week' },
      { label: 'This month', value: 'this_month' },
    ],
  },
  { id: 16, label: 'Upload a photo or document', type: 'SingleUploadInput', optional: true },
]

export interface FakeServerOptions {
  surveyId?: number
  surveyName?: string
  runId?: number
  requestId?: number
  questions?: FakeQuestion[]
  /** Answers already given (question id → value; null = skipped). */
  answered?: Record<number, string | null>
  /**
   * Begin reports the answers already given (`resumed_answers`), so the drawer asks 'Continue
   * where you left off?'. Off by default: `answered` then just sets up a run mid-way.
   */
  reportResumed?: boolean
}

export interface AnswerCall {
  runId: number
  body: {
    user_request_answer: {
      object_satisfied_id: number
      object_satisfied_type: string
      value: string | null
    }
  }
}

function formatPhone(d: string) {
  return `(${d.slice(0, 3)}) ${d.slice(3, 6)}-${d.slice(6)}`
}

export function fakeSurveyServer(options: FakeServerOptions = {}) {
  const surveyId = options.surveyId ?? 603
  const surveyName = options.surveyName ?? 'Tell us what you need'
  const runId = options.runId ?? 77
  const requestId = options.requestId ?? 501
  const questions = options.questions ?? QUESTIONS
  const answers = new Map<number, string | null>(
    Object.entries(options.answered ?? {}).map(([k, v]) => [Number(k), v]),
  )
  const uploads = new Map<string, string>()
  const state = {
    begins: [] as { surveyId: number; body: unknown }[],
    answerCalls: [] as AnswerCall[],
    submits: 0,
    discards: 0,
    submitted: false,
    presigns: [] as unknown[],
  }

  const display = (q: FakeQuestion, value: string | null) => {
    if (value === null) return 'Question Skipped'
    if (q.type === 'SingleSelectInput')
      return q.options?.find((o) => o.value === value)?.label ?? value
    if (q.type === 'PhoneNumberInput') return formatPhone(value)
    if (q.type === 'SingleUploadInput') return uploads.get(value) ?? value
    return value
  }

  const run = () => ({
    id: runId,
    survey: { id: surveyId, name: surveyName },
    answers: questions
      .filter((q) => answers.has(q.id))
      .map((q) => {
        const value = answers.get(q.id) ?? null
        return {
          question_id: q.id,
          label: q.label,
          type: q.type,
          optional: q.optional ?? false,
          select_options: q.options ?? [],
          value,
          display_value: display(q, value),
          skipped: value === null,
        }
      }),
    submitted: state.submitted,
    request_id: state.submitted ? requestId : null,
  })

  const next = () => {
    const q = questions.find((question) => !answers.has(question.id))
    if (!q) return { next_item: null }
    const index = questions.indexOf(q)
    return {
      next_item: {
        item: {
          id: q.id,
          label: q.label,
          type: q.type,
          select_options: q.options ?? [],
          universal_answer: q.universal_answer ?? null,
        },
        optional: q.optional ?? false,
        last_question: index === questions.length - 1,
        question_number: index + 1,
        question_count: questions.length,
        count_is_final: true,
      },
    }
  }

  const handlers = {
    begin: http.post(
      apiUrl('/api/v1/request_surveys/:surveyId/user_request_surveys'),
      async ({ request, params }) => {
        const body = (await request.json()) as { start_over?: boolean } | null
        state.begins.push({ surveyId: Number(params.surveyId), body })
        if (body?.start_over) answers.clear()
        return HttpResponse.json({
          success: true,
          user_request_survey: { id: runId },
          resumed_answers: options.reportResumed ? answers.size : 0,
        })
      },
    ),
    discard: http.delete(apiUrl(`/api/v1/user_request_surveys/${runId}`), () => {
      state.discards += 1
      answers.clear()
      return HttpResponse.json({ success: true })
    }),
    run: http.get(apiUrl(`/api/v1/user_request_surveys/${runId}`), () => HttpResponse.json(run())),
    next: http.get(apiUrl(`/api/v1/user_request_surveys/${runId}/next_screen_item`), () =>
      HttpResponse.json(next()),
    ),
    answer: http.post(
      apiUrl(`/api/v1/user_request_surveys/${runId}/user_request_answers`),
      async ({ request }) => {
        const body = (await request.json()) as AnswerCall['body']
        state.answerCalls.push({ runId, body })
        const { object_satisfied_id: id, value } = body.user_request_answer
        answers.set(id, value)
        return HttpResponse.json({
          success: true,
          user_request_answer: { id: 1, question_id: id, value },
        })
      },
    ),
    submit: http.post(apiUrl(`/api/v1/user_request_surveys/${runId}/submit`), () => {
      state.submits += 1
      state.submitted = true
      return HttpResponse.json({ success: true, request_id: requestId })
    }),
    presign: http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
      const body = (await request.json()) as { upload: { filename: string } }
      state.presigns.push(body)
      const key = `uploads/${body.upload.filename}`
      uploads.set(key, body.upload.filename)
      return HttpResponse.json({ presigned_url: `${STORAGE_URL}/${body.upload.filename}`, key })
    }),
    storage: http.put(`${STORAGE_URL}/:name`, () => new HttpResponse(null, { status: 200 })),
  }

  return { handlers, list: Object.values(handlers), state, answers }
}
