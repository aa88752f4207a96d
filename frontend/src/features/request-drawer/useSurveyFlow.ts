/**
 * The request drawer's state machine (spec §4 'Request drawer flow'): begin (or resume) the
 * user request survey, load its answers and the next question, save answers and edits, and
 * submit. Failures are logged to the console (in api.ts) and surface as a friendly error with
 * a retry; a begin refused because the survey or its offering is gone shows the server's text.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useCallback, useEffect, useRef, useState } from 'react'
import type { CurrentUser } from '@/api/client'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { QUESTION_SKIPPED } from './answers'
import {
  type AnsweredQuestion,
  beginSurvey,
  discardSurvey,
  fetchNextItem,
  fetchRun,
  type NextItem,
  type QuestionItem,
  SurveyFlowError,
  saveAnswer,
  submitSurvey,
} from './api'

export type FlowPhase =
  | 'starting'
  /** An unsubmitted run with answers exists: 'Continue where you left off?' */
  | 'resume'
  | 'asking'
  | 'review'
  | 'submitting'
  | 'received'

export interface FlowError {
  message: string
  retry?: () => void
}

export type SaveResult = { ok: true } | { ok: false; message: string; retryable: boolean }

export const FLOW_MESSAGES = {
  begin: "Sorry, I couldn't start your request. Please check your connection and try again.",
  load: "Sorry, I couldn't load the next question. Please try again.",
  save: "Sorry, I couldn't save your answer. Please try again.",
  submit: "Sorry, I couldn't submit your request. Please try again.",
} as const

/** What the drawer needs to know about a question to ask it or edit its answer. */
export interface QuestionSpec {
  item: QuestionItem
  optional: boolean
}

export interface SurveyFlow {
  phase: FlowPhase
  surveyName: string | null
  answers: AnsweredQuestion[]
  current: NextItem | null
  /** A fetch is under way (the typing indicator shows after 250 ms). */
  busy: boolean
  error: FlowError | null
  requestId: number | null
  /** The submitted request was the user's first ever (request_count was 0). */
  firstRequest: boolean
  answer: (item: QuestionItem, value: string | null, display: string) => Promise<SaveResult>
  edit: (questionId: number, value: string | null) => Promise<SaveResult>
  submit: () => Promise<void>
  /** After 'Continue where you left off?': carry on with the saved answers. */
  resume: () => void
  /** After 'Continue where you left off?': discard the saved answers and begin afresh. */
  startOver: () => void
  /** The request was cancelled: discard the run, so the next begin starts fresh. */
  discard: () => void
  /** The question behind an answer, as far as it is known (for editing). */
  questionFor: (answer: AnsweredQuestion) => QuestionSpec
}

/** The run was submitted meanwhile (another tab or device): its request exists. */
function sentElsewhere(error: unknown): boolean {
  return error instanceof SurveyFlowError && error.status === 409
}

/**
 * The question no longer applies (422 on object_satisfied_id): an earlier answer was changed
 * meanwhile from another tab or device. Asking again from the run as it now is moves on.
 */
function questionGone(error: unknown): boolean {
  return (
    error instanceof SurveyFlowError &&
    error.status === 422 &&
    'object_satisfied_id' in error.fieldErrors
  )
}

/**
 * The begin was refused for good (404): the survey, or the offering whose 'Get help' began it,
 * is not there for the user any more. Trying again cannot help.
 */
function beginRefused(error: unknown): error is SurveyFlowError {
  return error instanceof SurveyFlowError && error.status === 404
}

function toSaveResult(error: unknown): SaveResult {
  if (error instanceof SurveyFlowError && error.valueError) {
    return { ok: false, message: error.valueError, retryable: false }
  }
  return { ok: false, message: FLOW_MESSAGES.save, retryable: true }
}

function upsertAnswer(list: AnsweredQuestion[], next: AnsweredQuestion): AnsweredQuestion[] {
  const index = list.findIndex((a) => a.question_id === next.question_id)
  if (index === -1) return [...list, next]
  return list.map((a, i) => (i === index ? { ...a, ...next } : a))
}

export function useSurveyFlow(
  surveyId: number,
  fallbackUser?: CurrentUser,
  offeringId?: number,
  onOfferingGone?: () => void,
): SurveyFlow {
  const queryClient = useQueryClient()
  const offeringGone = useRef(onOfferingGone)
  offeringGone.current = onOfferingGone
  const [phase, setPhase] = useState<FlowPhase>('starting')
  const [runId, setRunId] = useState<number | null>(null)
  const [surveyName, setSurveyName] = useState<string | null>(null)
  const [answers, setAnswers] = useState<AnsweredQuestion[]>([])
  const [current, setCurrent] = useState<NextItem | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<FlowError | null>(null)
  const [requestId, setRequestId] = useState<number | null>(null)
  const [firstRequest, setFirstRequest] = useState(false)

  const alive = useRef(true)
  const loadSeq = useRef(0)
  const questions = useRef(new Map<number, QuestionSpec>())

  const load = useCallback(async (id: number): Promise<void> => {
    const seq = ++loadSeq.current
    setBusy(true)
    setError(null)
    try {
      const [run, next] = await Promise.all([fetchRun(id), fetchNextItem(id)])
      if (!alive.current || seq !== loadSeq.current) return
      if (next) questions.current.set(next.item.id, { item: next.item, optional: next.optional })
      setSurveyName(run.survey.name)
      setAnswers(run.answers)
      setCurrent(next)
      setPhase((p) => (p === 'submitting' || p === 'received' ? p : next ? 'asking' : 'review'))
    } catch {
      if (!alive.current || seq !== loadSeq.current) return
      setError({ message: FLOW_MESSAGES.load, retry: () => void load(id) })
    } finally {
      if (alive.current && seq === loadSeq.current) setBusy(false)
    }
  }, [])

  const start = useCallback(
    async (startOver = false): Promise<void> => {
      setBusy(true)
      setError(null)
      try {
        const run = await beginSurvey(surveyId, { startOver, offeringId })
        if (!alive.current) return
        setRunId(run.id)
        if (run.resumedAnswers > 0) {
          setBusy(false)
          setPhase('resume')
          return
        }
        await load(run.id)
      } catch (e) {
        if (!alive.current) return
        setBusy(false)
        if (beginRefused(e)) {
          setError({ message: e.serverMessage ?? FLOW_MESSAGES.begin })
          offeringGone.current?.()
          return
        }
        setError({ message: FLOW_MESSAGES.begin, retry: () => void start(startOver) })
      }
    },
    [surveyId, offeringId, load],
  )

  const resume = useCallback(() => {
    if (runId === null) return
    setPhase('starting')
    void load(runId)
  }, [runId, load])

  const startOver = useCallback(() => {
    setPhase('starting')
    setAnswers([])
    setCurrent(null)
    void start(true)
  }, [start])

  const discard = useCallback(() => {
    if (runId === null) return
    discardSurvey(runId).catch((e) => console.error(e))
  }, [runId])

  useEffect(() => {
    alive.current = true
    void start()
    return () => {
      alive.current = false
    }
  }, [start])

  // Sent from another tab or device meanwhile: submitting again answers the request it made
  // (a submitted run's request), and the drawer shows it as sent.
  const showSent = useCallback((): SaveResult => {
    void submitRef.current()
    return { ok: true }
  }, [])

  const reload = useCallback(
    (id: number): SaveResult => {
      void load(id)
      return { ok: true }
    },
    [load],
  )

  const answer = useCallback(
    async (item: QuestionItem, value: string | null, display: string): Promise<SaveResult> => {
      if (runId === null) return { ok: false, message: FLOW_MESSAGES.save, retryable: true }
      try {
        await saveAnswer(runId, item.id, value)
      } catch (e) {
        if (sentElsewhere(e)) return showSent()
        if (questionGone(e)) return reload(runId)
        return toSaveResult(e)
      }
      if (!alive.current) return { ok: true }
      // Show the answer straight away; the server's version replaces it once loaded.
      setAnswers((list) =>
        upsertAnswer(list, {
          question_id: item.id,
          label: item.label,
          type: item.type,
          optional: questions.current.get(item.id)?.optional ?? value === null,
          select_options: item.select_options,
          value,
          display_value: value === null ? QUESTION_SKIPPED : display,
          skipped: value === null,
        }),
      )
      setCurrent(null)
      void load(runId)
      return { ok: true }
    },
    [runId, load, showSent, reload],
  )

  const edit = useCallback(
    async (questionId: number, value: string | null): Promise<SaveResult> => {
      if (runId === null) return { ok: false, message: FLOW_MESSAGES.save, retryable: true }
      try {
        await saveAnswer(runId, questionId, value)
      } catch (e) {
        if (sentElsewhere(e)) return showSent()
        if (questionGone(e)) return reload(runId)
        return toSaveResult(e)
      }
      // A changed answer can change which questions follow (branching): reload both.
      if (alive.current) await load(runId)
      return { ok: true }
    },
    [runId, load, showSent, reload],
  )

  const submit = useCallback(async (): Promise<void> => {
    if (runId === null) return
    const cached = queryClient.getQueryData<CurrentUser>(currentUserQuery.queryKey)
    const countBefore = (cached ?? fallbackUser)?.request_count
    setPhase('submitting')
    setError(null)
    try {
      const id = await submitSurvey(runId)
      if (!alive.current) return
      // Spec §3: request_count is incremented locally when a request is created.
      queryClient.setQueryData<CurrentUser>(currentUserQuery.queryKey, (user) =>
        user ? { ...user, request_count: user.request_count + 1 } : user,
      )
      void queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey })
      void queryClient.invalidateQueries({ queryKey: ['requests'] })
      setRequestId(id)
      setFirstRequest(countBefore === 0)
      setPhase('received')
    } catch (e) {
      if (!alive.current) return
      setPhase('review')
      if (e instanceof SurveyFlowError && e.status === 422) {
        // Something is missing or changed: show what the server says and ask again.
        setError({ message: e.serverMessage ?? FLOW_MESSAGES.submit })
        void load(runId).then(() => {
          if (alive.current) setError({ message: e.serverMessage ?? FLOW_MESSAGES.submit })
        })
        return
      }
      setError({ message: FLOW_MESSAGES.submit, retry: () => void submitRef.current() })
    }
  }, [runId, queryClient, fallbackUser, load])

  const submitRef = useRef(submit)
  submitRef.current = submit

  const questionFor = useCallback((a: AnsweredQuestion): QuestionSpec => {
    const known = questions.current.get(a.question_id)
    if (known) return known
    return {
      item: {
        id: a.question_id,
        label: a.label,
        type: a.type,
        select_options: a.select_options,
        universal_answer: null,
      },
      optional: a.optional,
    }
  }, [])

  return {
    phase,
    surveyName,
    answers,
    current,
    busy,
    error,
    requestId,
    firstRequest,
    answer,
    edit,
    submit,
    resume,
    startOver,
    discard,
    questionFor,
  }
}
