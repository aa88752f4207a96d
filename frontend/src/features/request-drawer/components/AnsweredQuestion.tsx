/**
 * An answered question: in the conversation (Penny's question, the user's answer bubble) or in
 * the summary review; either way with an Edit button that turns it into an inline editor
 * (spec §4 step 4: Save or Cancel; cancelling with changes asks first).
 */
import { Pencil } from 'lucide-react'
import { useEffect, useId, useRef, useState } from 'react'
import { Button, ConfirmDialog, cx } from '@/design-system'
import type { AnsweredQuestion as Answer } from '../api'
import type { QuestionSpec, SaveResult } from '../useSurveyFlow'
import { AnswerForm } from './AnswerForm'
import { PennyMessage, UserBubble } from './Conversation'

/** Spec §4 step 4, verbatim. */
export const DISCARD_EDIT_MESSAGE =
  "Are you sure you want to cancel your edit and discard any changes you've made?"

export interface AnsweredQuestionProps {
  answer: Answer
  spec: QuestionSpec
  variant: 'chat' | 'summary'
  isEditing: boolean
  /** Editing is not offered (e.g. while submitting). */
  locked?: boolean
  onEditingChange: (questionId: number, editing: boolean) => void
  onSave: (questionId: number, value: string | null) => Promise<SaveResult>
}

/** Whether this answer can be edited with what the drawer knows about its question. */
function canEdit(spec: QuestionSpec) {
  return !(spec.item.type === 'SingleSelectInput' && spec.item.select_options.length === 0)
}

export function AnsweredQuestion({
  answer,
  spec,
  variant,
  isEditing,
  locked = false,
  onEditingChange,
  onSave,
}: AnsweredQuestionProps) {
  const [confirming, setConfirming] = useState(false)
  const editButton = useRef<HTMLButtonElement>(null)
  const wasEditing = useRef(isEditing)
  const labelId = useId()

  // Back on the Edit button once the editor closes.
  useEffect(() => {
    if (wasEditing.current && !isEditing) editButton.current?.focus()
    wasEditing.current = isEditing
  }, [isEditing])

  const stopEditing = () => onEditingChange(answer.question_id, false)

  const editor = (
    <div className="rounded-2xl border border-line bg-surface p-4 shadow-xs">
      <AnswerForm
        question={spec.item}
        optional={spec.optional}
        mode="edit"
        initialValue={answer.value}
        initialFileName={answer.type === 'SingleUploadInput' ? answer.display_value : undefined}
        labelledBy={labelId}
        onSubmit={async (value) => {
          const result = await onSave(answer.question_id, value)
          if (result.ok) stopEditing()
          return result
        }}
        onCancel={(dirty) => {
          if (dirty) setConfirming(true)
          else stopEditing()
        }}
      />
      <ConfirmDialog
        isOpen={confirming}
        message={DISCARD_EDIT_MESSAGE}
        confirmLabel="Yes, discard"
        cancelLabel="No, keep editing"
        destructive
        onConfirm={() => {
          setConfirming(false)
          stopEditing()
        }}
        onCancel={() => setConfirming(false)}
      />
    </div>
  )

  const edit =
    !isEditing && !locked && canEdit(spec) ? (
      <Button
        ref={editButton}
        variant="tertiary"
        size="sm"
        icon={<Pencil />}
        aria-label={`Edit answer: ${answer.label}`}
        onClick={() => onEditingChange(answer.question_id, true)}
      >
        Edit
      </Button>
    ) : null

  if (variant === 'summary') {
    return (
      // dt and dd are the only children of the row (a valid <dl>); Edit sits in the dd, placed
      // beside the question.
      <div className="relative flex flex-col gap-2 border-b border-line py-3 last:border-b-0">
        <dt id={labelId} className={cx('text-sm font-semibold text-ink', edit && 'pe-20')}>
          {answer.label}
        </dt>
        <dd className={cx('m-0', !isEditing && 'whitespace-pre-line break-words')}>
          {isEditing ? (
            editor
          ) : (
            <span className={answer.skipped ? 'italic text-ink-muted' : 'text-ink'}>
              {answer.display_value}
            </span>
          )}
          {edit ? <span className="absolute end-0 top-2">{edit}</span> : null}
        </dd>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-2" data-question-id={answer.question_id}>
      <PennyMessage id={labelId}>{answer.label}</PennyMessage>
      {isEditing ? (
        editor
      ) : (
        <div className="flex flex-col items-end gap-1">
          <UserBubble muted={answer.skipped}>{answer.display_value}</UserBubble>
          {edit}
        </div>
      )}
    </div>
  )
}
