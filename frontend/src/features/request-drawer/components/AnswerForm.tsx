/**
 * One question's answer input, by type (spec §3 'Question input types'), with Continue/Skip
 * (asking) or Save/Cancel (editing). Continue stays disabled until there is an answer, or an
 * uploaded file for uploads (spec §5).
 */
import { Paperclip } from 'lucide-react'
import { type FormEvent, useEffect, useId, useMemo, useRef, useState } from 'react'
import {
  Button,
  Chip,
  ChipGroup,
  FileUpload,
  PhoneInput,
  RetryAlert,
  TextInput,
} from '@/design-system'
import { useSingleFileUpload } from '@/features/conversation'
import { answerPayload, answerProblem, displayAnswer, isAnswerReady, phoneDigits } from '../answers'
import type { QuestionItem } from '../api'
import { NUMBER_KEYS, useNumberKeys } from '../useNumberKeys'
import type { SaveResult } from '../useSurveyFlow'

export interface AnswerFormProps {
  question: QuestionItem
  optional: boolean
  mode: 'ask' | 'edit'
  /** Editing: the answer's current value (phone digits, option value, upload key, text). */
  initialValue?: string | null
  /**
   * Asking: the answer the question starts with, e.g. the option that 'Get help' from an
   * offering pre-selects ('Medical insurance' for 'Which benefit do you need help with?').
   * The person can change it before continuing.
   */
  prefill?: string
  /** Editing an upload: the current file's name. */
  initialFileName?: string
  /** Sends the answer; resolves with the outcome. */
  onSubmit: (value: string | null, display: string) => Promise<SaveResult>
  /** Editing: Cancel was pressed; `dirty` tells whether anything changed. */
  onCancel?: (dirty: boolean) => void
  /** Id of Penny's message that asks the question (names the form). */
  labelledBy?: string
}

interface FormError {
  message: string
  retry?: () => void
}

function initialFor(
  question: QuestionItem,
  mode: 'ask' | 'edit',
  value?: string | null,
  prefill?: string,
): string {
  if (mode === 'edit') return value ?? ''
  if (question.type === 'SingleSelectInput') {
    // Only one of the question's own options can start chosen.
    return question.select_options.some((option) => option.value === prefill) ? (prefill ?? '') : ''
  }
  if (prefill) return prefill
  if (question.type === 'PhoneNumberInput') return phoneDigits(question.universal_answer)
  if (question.type === 'ManagedEmailInput') return question.universal_answer ?? ''
  // Text questions with a universal answer (the address, a city…) start from it too.
  if (question.type === 'TextInput' || question.type === 'MultilineTextInput') {
    return question.universal_answer ?? ''
  }
  return ''
}

export function AnswerForm({
  question,
  optional,
  mode,
  initialValue,
  prefill,
  initialFileName,
  onSubmit,
  onCancel,
  labelledBy,
}: AnswerFormProps) {
  const startValue = initialFor(question, mode, initialValue, prefill)
  const [value, setValue] = useState(startValue)
  const [fileName, setFileName] = useState(initialFileName ?? '')
  const [saving, setSaving] = useState<'answer' | 'skip' | null>(null)
  const [error, setError] = useState<FormError | null>(null)
  const containerRef = useRef<HTMLFormElement>(null)
  const errorId = useId()

  // Focus moves to each new question's input (and into the editor when editing starts): for a
  // choice, the chosen option's; in a text being edited, after its last character, so that
  // typing goes on from there.
  useEffect(() => {
    const field = answerField(containerRef.current)
    field?.focus()
    if (
      mode === 'edit' &&
      (field instanceof HTMLTextAreaElement || field instanceof HTMLInputElement)
    ) {
      const end = field.value.length
      if (end && canPlaceCaret(field)) field.setSelectionRange(end, end)
    }
  }, [mode])

  // The field was disabled while saving, so the focus fell out of the form: a refused or
  // failed answer brings it back to the field, which then reads out its error.
  useEffect(() => {
    if (error) answerField(containerRef.current)?.focus()
  }, [error])

  const type = question.type
  const choice = type === 'SingleSelectInput'
  const optionValues = useMemo(
    () => question.select_options.slice(0, NUMBER_KEYS.length).map((option) => option.value),
    [question.select_options],
  )
  useNumberKeys({
    formRef: containerRef,
    values: optionValues,
    enabled: choice && saving === null,
    primary: mode === 'ask',
    onPick: (next) => {
      setValue(next)
      if (error && !error.retry) setError(null)
    },
  })
  const ready = isAnswerReady(type, value)
  const dirty = value !== startValue

  const send = async (kind: 'answer' | 'skip') => {
    setSaving(kind)
    setError(null)
    const payload = kind === 'skip' ? null : answerPayload(type, value)
    const display = displayAnswer(type, payload, {
      options: question.select_options,
      fileName,
    })
    const result = await onSubmit(payload, display)
    setSaving(null)
    if (!result.ok) {
      setError({
        message: result.message,
        retry: result.retryable ? () => void send(kind) : undefined,
      })
    }
  }

  const onFormSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (!ready || saving) return
    if (mode === 'edit' && !dirty) {
      onCancel?.(false)
      return
    }
    const problem = answerProblem(type, value)
    if (problem) {
      setError({ message: problem })
      return
    }
    void send('answer')
  }

  const fieldError = error && !error.retry ? error.message : null
  // An optional question can be skipped, and so can an answer to one while it is edited.
  const skip = optional ? (
    <Button
      variant="tertiary"
      size={mode === 'edit' ? 'sm' : undefined}
      onClick={() => void send('skip')}
      disabled={saving !== null}
      loading={saving === 'skip'}
    >
      Skip
    </Button>
  ) : null

  return (
    <form
      ref={containerRef}
      onSubmit={onFormSubmit}
      aria-labelledby={labelledBy}
      data-number-keys={choice ? '' : undefined}
      className="flex flex-col gap-3"
      noValidate
    >
      <AnswerInput
        question={question}
        optional={optional}
        value={value}
        fieldError={fieldError}
        initialFileName={mode === 'edit' ? initialFileName : undefined}
        disabled={saving !== null}
        onChange={(next, name) => {
          setValue(next)
          if (name !== undefined) setFileName(name)
          if (error && !error.retry) setError(null)
        }}
      />
      {error?.retry ? (
        <RetryAlert id={errorId} message={error.message} onRetry={error.retry} compact />
      ) : null}
      <div className="flex flex-wrap items-center justify-end gap-2">
        {mode === 'edit' ? (
          <>
            <Button
              variant="tertiary"
              size="sm"
              onClick={() => onCancel?.(dirty)}
              disabled={saving !== null}
            >
              Cancel
            </Button>
            {startValue !== '' ? skip : null}
            <Button type="submit" size="sm" disabled={!ready} loading={saving === 'answer'}>
              Save
            </Button>
          </>
        ) : (
          <>
            {skip}
            <Button type="submit" disabled={!ready} loading={saving === 'answer'}>
              Continue
            </Button>
          </>
        )}
      </div>
    </form>
  )
}

interface AnswerInputProps {
  question: QuestionItem
  optional: boolean
  value: string
  fieldError: string | null
  initialFileName?: string
  disabled: boolean
  /** New value; `fileName` for uploads. */
  onChange: (value: string, fileName?: string) => void
}

function AnswerInput({
  question,
  optional,
  value,
  fieldError,
  initialFileName,
  disabled,
  onChange,
}: AnswerInputProps) {
  const name = `question-${question.id}`
  const common = {
    label: question.label,
    name,
    hideLabel: true,
    required: !optional,
    error: fieldError,
    disabled,
  }
  switch (question.type) {
    case 'MultilineTextInput':
      return (
        <TextInput
          {...common}
          type="textarea"
          rows={4}
          maxLength={5000}
          value={value}
          onValueChange={(v) => onChange(String(v ?? ''))}
        />
      )
    case 'PhoneNumberInput':
      return (
        <PhoneInput
          {...common}
          mask="(999) 999-9999"
          value={value}
          onValueChange={(raw) => onChange(raw)}
        />
      )
    case 'ManagedEmailInput':
      return (
        <TextInput
          {...common}
          type="email"
          autoComplete="email"
          value={value}
          onValueChange={(v) => onChange(String(v ?? ''))}
        />
      )
    case 'SingleSelectInput':
      return (
        <ChipGroup
          type="radio"
          label={<span className="sr-only">{question.label}</span>}
          name={name}
          value={value || null}
          onChange={(v) => onChange(v)}
          isRequired={!optional}
          isDisabled={disabled}
          error={fieldError}
        >
          {question.select_options.map((option, index) => (
            <Chip
              key={option.value}
              variant="radio"
              value={option.value}
              label={option.label}
              description=""
              stretch
              keyHint={NUMBER_KEYS[index]}
            />
          ))}
        </ChipGroup>
      )
    case 'SingleUploadInput':
      return (
        <UploadAnswer
          label={question.label}
          name={name}
          error={fieldError}
          disabled={disabled}
          currentFileName={initialFileName}
          onChange={onChange}
        />
      )
    default:
      return (
        <TextInput
          {...common}
          type="text"
          maxLength={5000}
          value={value}
          onValueChange={(v) => onChange(String(v ?? ''))}
        />
      )
  }
}

function UploadAnswer({
  label,
  name,
  error,
  disabled,
  currentFileName,
  onChange,
}: {
  label: string
  name: string
  error: string | null
  disabled: boolean
  currentFileName?: string
  onChange: (value: string, fileName?: string) => void
}) {
  const upload = useSingleFileUpload()
  const status = upload.status === 'idle' ? 'pending' : upload.status
  return (
    <fieldset className="m-0 flex min-w-0 flex-col gap-2 border-0 p-0">
      <legend className="sr-only">{label}</legend>
      {currentFileName && upload.status === 'idle' && !upload.error ? (
        <p className="flex items-center gap-2 text-sm text-ink-muted">
          <Paperclip aria-hidden="true" className="size-4" />
          Current file: <span className="font-semibold text-ink">{currentFileName}</span>
        </p>
      ) : null}
      <FileUpload
        name={name}
        isDisabled={disabled}
        status={status}
        progress={upload.progress}
        error={upload.error ?? error}
        onFileSelected={async (file) => {
          onChange('', file.name)
          const key = await upload.start(file)
          if (key) onChange(key, file.name)
        }}
        onFileRemoved={() => {
          upload.reset()
          onChange('', '')
        }}
      />
    </fieldset>
  )
}

/** The form's answer field: a choice's chosen option (else its first), or its text or file input. */
function answerField(form: HTMLFormElement | null): HTMLElement | null {
  return (
    form?.querySelector<HTMLElement>('input[type="radio"]:checked') ??
    form?.querySelector<HTMLElement>('input:not([type="hidden"]):not([disabled]), textarea') ??
    null
  )
}

/** Whether the field takes a caret position (email and number inputs refuse one). */
function canPlaceCaret(field: HTMLInputElement | HTMLTextAreaElement): boolean {
  return (
    field instanceof HTMLTextAreaElement || ['text', 'search', 'tel', 'url'].includes(field.type)
  )
}
