/**
 * The request drawer (spec §2 'Request drawer', §4 'Request drawer flow'): Penny asks one
 * question at a time, answers can be skipped (optional) or edited, a summary review leads to
 * Submit, and a confirmation links on to the Dashboard and the request queue.
 */
import { type ReactNode, useCallback, useEffect, useId, useRef, useState } from 'react'
import { useLocation, useOutletContext } from 'react-router'
import {
  ASSISTANT_NAME,
  Assistant,
  Button,
  type ButtonVariant,
  ConfirmDialog,
  Drawer,
  Heading,
  Paragraph,
  ProgressBar,
  RetryAlert,
} from '@/design-system'
import { ExpectReplyByRequest } from '@/features/conversation'
import type { AuthedContext } from '@/lib/currentUser'
import type { NextItem } from '../api'
import { celebrate, prefersReducedMotion } from '../confetti'
import type { RequestDrawerTarget } from '../requestDrawer'
import { useDelayedFlag } from '../useDelayedFlag'
import { useSurveyFlow } from '../useSurveyFlow'
import { AnsweredQuestion } from './AnsweredQuestion'
import { AnswerForm } from './AnswerForm'
import { PennyMessage, TypingIndicator } from './Conversation'

/** Spec §4 step 6, verbatim. */
export const CLOSE_CONFIRM_MESSAGE = "Wait! You're almost there. Are you sure you want to stop now?"
export const RECEIVED_HEADING = "We've received your request"

export default function RequestDrawer({
  target,
  onClose,
}: {
  target: RequestDrawerTarget
  onClose: () => void
}) {
  const user = useOutletContext<Partial<AuthedContext> | undefined>()?.user
  const flow = useSurveyFlow(target.surveyId, user, target.offeringId, target.onOfferingGone)
  const [editing, setEditing] = useState<ReadonlySet<number>>(new Set())
  const [confirmClose, setConfirmClose] = useState(false)
  const showTyping = useDelayedFlag(flow.busy)
  const endRef = useRef<HTMLDivElement>(null)
  const reviewHeadingRef = useRef<HTMLHeadingElement>(null)
  const resumeButtonRef = useRef<HTMLButtonElement>(null)
  const flowErrorRef = useRef<HTMLDivElement>(null)
  const questionLabelId = useId()

  const { phase, answers, current } = flow
  const reviewing = phase === 'review' || phase === 'submitting'
  const received = phase === 'received'
  const title = target.surveyName ?? flow.surveyName ?? 'New request'
  const midFlow = !received && answers.length > 0

  const requestClose = () => {
    if (midFlow) setConfirmClose(true)
    else onClose()
  }

  const setEditingFor = useCallback((questionId: number, on: boolean) => {
    setEditing((prev) => {
      const next = new Set(prev)
      if (on) next.add(questionId)
      else next.delete(questionId)
      return next
    })
  }, [])

  // Keep the newest message in view.
  // biome-ignore lint/correctness/useExhaustiveDependencies: scroll whenever the conversation grows
  useEffect(() => {
    endRef.current?.scrollIntoView?.({
      block: 'nearest',
      behavior: prefersReducedMotion() ? 'auto' : 'smooth',
    })
  }, [answers.length, current?.item.id, showTyping, phase])

  // The last answer's form is gone once the review shows: focus goes to the review's heading
  // (not after a failed submit, which leaves it on Submit and the error).
  const reviewShown = useRef(false)
  useEffect(() => {
    if (phase === 'review' && !reviewShown.current) reviewHeadingRef.current?.focus()
    reviewShown.current = reviewing
  }, [phase, reviewing])

  // 'Continue where you left off?' is the step's question: its answer takes the focus, as a
  // question's field does.
  useEffect(() => {
    if (phase === 'resume') resumeButtonRef.current?.focus()
  }, [phase])

  // A step that failed took its form away, or disabled the button that had the focus (Submit):
  // the focus goes to Retry, the way on.
  useEffect(() => {
    if (flow.error?.retry) flowErrorRef.current?.querySelector('button')?.focus()
  }, [flow.error])

  // Confetti on the first-ever request only.
  useEffect(() => {
    if (received && flow.firstRequest) celebrate()
  }, [received, flow.firstRequest])

  const greeting = user?.first_name ? `Hi ${user.first_name}!` : 'Hi there!'

  return (
    <Drawer isOpen onClose={onClose} onRequestClose={requestClose} title={title} variant="panel">
      {received ? (
        <Received
          firstName={user?.first_name}
          surveyName={flow.surveyName ?? target.surveyName}
          requestId={flow.requestId}
          onClose={onClose}
        />
      ) : (
        <div className="flex flex-col gap-4">
          {phase === 'asking' && current ? <SurveyProgress item={current} /> : null}
          <div
            role="log"
            aria-label={`Conversation with ${ASSISTANT_NAME}`}
            className="flex flex-col gap-4"
          >
            <PennyMessage>
              {greeting} I'm {ASSISTANT_NAME}, your concierge assistant. I'll ask you a few quick
              questions so our team knows exactly what you need.
            </PennyMessage>
            {!reviewing &&
              answers.map((answer) => (
                <AnsweredQuestion
                  key={answer.question_id}
                  answer={answer}
                  spec={flow.questionFor(answer)}
                  variant="chat"
                  isEditing={editing.has(answer.question_id)}
                  onEditingChange={setEditingFor}
                  onSave={flow.edit}
                />
              ))}
            {phase === 'resume' ? (
              <PennyMessage id={`${questionLabelId}-resume`}>
                Continue where you left off?
              </PennyMessage>
            ) : null}
            {phase === 'asking' && current ? (
              <PennyMessage id={questionLabelId}>
                {current.item.label}
                {current.optional ? <span className="text-ink-muted"> (optional)</span> : null}
              </PennyMessage>
            ) : null}
            {reviewing ? (
              <PennyMessage>
                That's everything I need! Please review your answers below, then submit your
                request.
              </PennyMessage>
            ) : null}
            {showTyping ? <TypingIndicator /> : null}
          </div>

          {phase === 'resume' ? (
            <fieldset
              aria-labelledby={`${questionLabelId}-resume`}
              className="m-0 flex flex-col gap-2 border-0 p-0 sm:flex-row sm:justify-end"
            >
              <Button ref={resumeButtonRef} onClick={flow.resume}>
                Continue
              </Button>
              <Button variant="secondary" onClick={flow.startOver}>
                Start over
              </Button>
            </fieldset>
          ) : null}

          {phase === 'asking' && current ? (
            <AnswerForm
              key={current.item.id}
              question={current.item}
              optional={current.optional}
              mode="ask"
              prefill={
                target.answer?.questionId === current.item.id ? target.answer.value : undefined
              }
              labelledBy={questionLabelId}
              onSubmit={(value, display) => flow.answer(current.item, value, display)}
            />
          ) : null}

          {flow.error ? (
            <div ref={flowErrorRef}>
              <RetryAlert message={flow.error.message} onRetry={flow.error.retry} compact />
            </div>
          ) : null}

          {reviewing ? (
            <section aria-labelledby={`${questionLabelId}-review`} className="flex flex-col gap-3">
              <Heading
                level={3}
                id={`${questionLabelId}-review`}
                ref={reviewHeadingRef}
                tabIndex={-1}
                className="outline-none"
              >
                Review your request
              </Heading>
              <dl className="m-0 rounded-2xl border border-line bg-surface px-4 shadow-xs">
                {answers.map((answer) => (
                  <AnsweredQuestion
                    key={answer.question_id}
                    answer={answer}
                    spec={flow.questionFor(answer)}
                    variant="summary"
                    isEditing={editing.has(answer.question_id)}
                    locked={phase === 'submitting'}
                    onEditingChange={setEditingFor}
                    onSave={flow.edit}
                  />
                ))}
              </dl>
              <Button
                fullWidth
                onClick={() => void flow.submit()}
                disabled={editing.size > 0 || flow.busy}
                loading={phase === 'submitting'}
              >
                {editing.size > 0
                  ? 'Finish editing above'
                  : phase === 'submitting'
                    ? 'Submitting'
                    : 'Submit'}
              </Button>
            </section>
          ) : null}
          <div ref={endRef} />
        </div>
      )}

      <ConfirmDialog
        isOpen={confirmClose}
        message={CLOSE_CONFIRM_MESSAGE}
        confirmLabel="Yes, cancel"
        cancelLabel="No, stay"
        onConfirm={() => {
          setConfirmClose(false)
          flow.discard()
          onClose()
        }}
        onCancel={() => setConfirmClose(false)}
      />
    </Drawer>
  )
}

function Received({
  firstName,
  surveyName,
  requestId,
  onClose,
}: {
  firstName?: string
  surveyName?: string | null
  requestId?: number | null
  onClose: () => void
}) {
  const headingRef = useRef<HTMLHeadingElement>(null)
  const headingId = useId()
  useEffect(() => {
    headingRef.current?.focus()
  }, [])
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col items-center gap-5 py-4 text-center"
    >
      <Assistant size="lg" waving />
      <Heading level={2} id={headingId} ref={headingRef} tabIndex={-1} className="outline-none">
        {RECEIVED_HEADING}
      </Heading>
      <Paragraph tone="muted" className="max-w-md">
        {firstName ? `Thanks, ${firstName}! ` : 'Thank you! '}
        {surveyName
          ? `Your request “${surveyName}” is now in our queue.`
          : 'Your request is now in our queue.'}
      </Paragraph>
      {requestId ? <ExpectReplyByRequest id={requestId} /> : null}
      <div className="w-full max-w-md rounded-2xl bg-surface-muted p-4 text-start">
        <Heading level={3} size="default" className="mb-2 text-base sm:text-base">
          What happens next
        </Heading>
        <ol className="flex list-decimal flex-col gap-1.5 ps-5 text-sm text-ink">
          <li>A member of our concierge team reviews your request.</li>
          <li>They message you inside the request with questions or updates.</li>
          <li>You follow along and reply from your requests at any time.</li>
        </ol>
      </div>
      <div className="flex w-full max-w-md flex-col gap-2">
        {requestId ? (
          <LeaveButton to={`/requests/${requestId}`} onClose={onClose}>
            Open this request
          </LeaveButton>
        ) : null}
        <div className="flex flex-col gap-2 sm:flex-row">
          <LeaveButton
            to="/requests"
            variant={requestId ? 'secondary' : 'primary'}
            onClose={onClose}
          >
            View my requests
          </LeaveButton>
          <LeaveButton to="/dashboard" variant="secondary" onClose={onClose}>
            Go to Dashboard
          </LeaveButton>
        </div>
      </div>
    </section>
  )
}

/**
 * A way from the confirmation to another screen. The screen takes the drawer's place in the
 * history, so Back from it returns to the screen under the drawer; to that screen itself, the
 * button only closes the drawer, so the history holds it once.
 */
function LeaveButton({
  to,
  variant = 'primary',
  onClose,
  children,
}: {
  to: string
  variant?: ButtonVariant
  onClose: () => void
  children: ReactNode
}) {
  const { pathname } = useLocation()
  if (pathname === to) {
    return (
      <Button variant={variant} onClick={onClose} fullWidth>
        {children}
      </Button>
    )
  }
  return (
    <Button to={to} replace variant={variant} fullWidth>
      {children}
    </Button>
  )
}

/**
 * 'Question 3 of 7' with a bar; while branching may still add or drop questions, the count is
 * left out ('Question 3') and the bar shows how far along the possible questions the user is.
 */
function SurveyProgress({ item }: { item: NextItem }) {
  const { question_number: number, question_count: count, count_is_final: final } = item
  if (!number || !count) return null
  return (
    <ProgressBar
      label={final ? `Question ${number} of ${count}` : `Question ${number}`}
      value={((number - 1) / count) * 100}
      showValue={false}
      size="sm"
    />
  )
}
