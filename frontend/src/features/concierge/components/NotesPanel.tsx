import { useMutation, useQueryClient } from '@tanstack/react-query'
import { LockKeyhole } from 'lucide-react'
import { type FormEvent, useId, useRef, useState } from 'react'
import { Button, TextInput } from '@/design-system'
import { formatWhen, relativeTime } from '@/lib/format'
import { addNote, type DeskApiError, type DeskNote } from '../api'
import { cacheDeskAnswer } from '../lib/useDeskAction'

export const INTERNAL_NOTICE = 'Internal — the employee never sees these'
export const EMPTY_NOTE_ERROR = 'Please write the note.'

/**
 * Internal notes: concierges only, never shown to the employee. Marked as such in the heading
 * and the panel's colour, apart from the thread.
 */
export function NotesPanel({
  requestId,
  notes,
  now,
}: {
  requestId: number
  notes: DeskNote[]
  now: number
}) {
  const headingId = useId()
  const queryClient = useQueryClient()
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const field = useRef<HTMLTextAreaElement>(null)
  // Focused, the box reads its error out: pressed on Add note, it would go unheard.
  const refuse = (message: string) => {
    setFieldError(message)
    field.current?.focus()
  }
  // Set at once on submit: `add.isPending` reaches the form a tick later, after a double
  // click's second submit (a note has no idempotency key: it would be added twice).
  const adding = useRef(false)

  const add = useMutation<DeskNote, DeskApiError, string>({
    mutationFn: (body) => addNote(requestId, body),
    onSettled: () => {
      adding.current = false
    },
    onSuccess: (note) => {
      setText('')
      setFieldError(null)
      void cacheDeskAnswer(queryClient, requestId, (request) =>
        request && !request.notes.some((n) => n.id === note.id)
          ? { ...request, notes: [...request.notes, note] }
          : request,
      )
    },
    onError: (error) => refuse(error.message),
  })

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (adding.current) return
    const body = text.trim()
    if (!body) {
      refuse(EMPTY_NOTE_ERROR)
      return
    }
    adding.current = true
    add.mutate(body)
  }

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-warning-200 bg-warning-50 p-4 sm:p-5"
    >
      <header className="flex flex-col gap-1">
        <h2 id={headingId} className="flex items-center gap-2 text-lg font-semibold text-ink">
          <LockKeyhole aria-hidden="true" className="size-4 text-warning-700" />
          Internal notes
        </h2>
        <p className="text-sm font-medium text-warning-800">{INTERNAL_NOTICE}</p>
      </header>
      {notes.length === 0 ? (
        <p className="text-sm text-ink-muted">No notes yet.</p>
      ) : (
        <ol aria-label="Notes" className="flex flex-col gap-3">
          {notes.map((note) => (
            <li key={note.id} className="rounded-xl bg-surface px-3 py-2.5 shadow-xs">
              <p className="text-sm whitespace-pre-wrap break-words text-ink">{note.body}</p>
              <p className="mt-1 text-xs text-ink-muted">
                {note.author?.full_name ?? 'A concierge'} ·{' '}
                <time
                  dateTime={note.created_at}
                  title={formatWhen(note.created_at, { now, capitalize: true })}
                >
                  {relativeTime(note.created_at, now)}
                </time>
              </p>
            </li>
          ))}
        </ol>
      )}
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
        <p role="status" className="sr-only">
          {add.isSuccess ? 'Note added.' : ''}
        </p>
        <TextInput
          ref={field}
          type="textarea"
          name="note"
          label="Add an internal note"
          required
          rows={3}
          value={text}
          error={fieldError}
          onChange={(event) => {
            setText(event.target.value)
            if (fieldError && event.target.value.trim()) setFieldError(null)
          }}
        />
        <Button
          type="submit"
          variant="secondary"
          size="sm"
          loading={add.isPending}
          className="self-end"
        >
          Add note
        </Button>
      </form>
    </section>
  )
}
