import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Pencil, Plus, Trash2 } from 'lucide-react'
import { type RefObject, useEffect, useId, useRef, useState } from 'react'
import {
  Button,
  FormError,
  Heading,
  LoadFailed,
  Paragraph,
  Skeleton,
  TextInput,
  useToast,
} from '@/design-system'
import {
  createSavedReply,
  type DeskApiError,
  deleteSavedReply,
  deskKeys,
  type SavedReply,
  type SavedReplyInput,
  savedRepliesQuery,
  updateSavedReply,
} from '../api'

const PLACEHOLDER_HELP =
  'Placeholders: {first_name} (the employee), {request_name}, {concierge_first_name} (you).'

/**
 * Where focus goes after the next render: the control that takes the place of the one just
 * pressed (Edit → the form, Cancel → Edit again), so a keyboard user is not dropped on the page.
 */
function useFocusAfterRender() {
  const target = useRef<RefObject<HTMLElement | null> | null>(null)
  useEffect(() => {
    target.current?.current?.focus()
    target.current = null
  })
  return (ref: RefObject<HTMLElement | null>) => {
    target.current = ref
  }
}

function ReplyForm({
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  initial: SavedReplyInput
  submitLabel: string
  onSave: (input: SavedReplyInput) => Promise<unknown>
  onCancel?: () => void
}) {
  const [title, setTitle] = useState(initial.title)
  const [body, setBody] = useState(initial.body)
  const [errors, setErrors] = useState<Record<string, string>>({})
  const [pending, setPending] = useState(false)
  const [failure, setFailure] = useState<string | null>(null)
  const titleField = useRef<HTMLInputElement>(null)
  const bodyField = useRef<HTMLTextAreaElement>(null)
  useEffect(() => titleField.current?.focus(), [])
  return (
    <form
      noValidate
      className="flex flex-col gap-4"
      onSubmit={async (event) => {
        event.preventDefault()
        const next: Record<string, string> = {}
        if (!title.trim()) next.title = 'Please give the saved reply a title.'
        if (!body.trim()) next.body = 'Please write the reply.'
        setErrors(next)
        setFailure(null)
        // Focused, the first field in error reads it out.
        if (next.title) titleField.current?.focus()
        else if (next.body) bodyField.current?.focus()
        if (Object.keys(next).length) return
        setPending(true)
        try {
          await onSave({ title, body })
        } catch (error) {
          setFailure((error as DeskApiError).message)
        } finally {
          setPending(false)
        }
      }}
    >
      <TextInput
        ref={titleField}
        name="title"
        label="Title"
        required
        maxLength={100}
        value={title}
        error={errors.title}
        onValueChange={(value) => setTitle(String(value ?? ''))}
      />
      <TextInput
        ref={bodyField}
        type="textarea"
        name="body"
        label="Reply"
        description={PLACEHOLDER_HELP}
        required
        rows={4}
        value={body}
        error={errors.body}
        onValueChange={(value) => setBody(String(value ?? ''))}
      />
      <FormError message={failure} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" loading={pending}>
          {submitLabel}
        </Button>
        {onCancel ? (
          <Button type="button" size="sm" variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    </form>
  )
}

function ReplyCard({ reply, onDeleted }: { reply: SavedReply; onDeleted: () => void }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [editing, setEditing] = useState(false)
  const [confirming, setConfirming] = useState(false)
  const headingId = useId()
  const editButton = useRef<HTMLButtonElement>(null)
  const deleteButton = useRef<HTMLButtonElement>(null)
  const keepButton = useRef<HTMLButtonElement>(null)
  const focusAfterRender = useFocusAfterRender()
  const remove = useMutation({
    mutationFn: () => deleteSavedReply(reply.id),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: deskKeys.savedReplies() })
      onDeleted()
      toast({ message: `Deleted “${reply.title}”.`, severity: 'success', autoDismiss: true })
    },
    onError: (error: Error) => toast({ message: error.message, severity: 'error' }),
  })
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      {editing ? (
        <ReplyForm
          initial={{ title: reply.title, body: reply.body }}
          submitLabel="Save changes"
          onCancel={() => {
            setEditing(false)
            focusAfterRender(editButton)
          }}
          onSave={async (input) => {
            await updateSavedReply(reply.id, input)
            await queryClient.invalidateQueries({ queryKey: deskKeys.savedReplies() })
            setEditing(false)
            focusAfterRender(editButton)
          }}
        />
      ) : (
        <>
          <h2 id={headingId} className="font-semibold text-ink">
            {reply.title}
          </h2>
          <p className="text-sm break-words whitespace-pre-line text-ink">{reply.body}</p>
          <div className="flex flex-wrap items-center gap-2">
            <Button
              ref={editButton}
              size="sm"
              variant="secondary"
              icon={<Pencil />}
              onClick={() => setEditing(true)}
            >
              Edit<span className="sr-only"> “{reply.title}”</span>
            </Button>
            {confirming ? (
              <>
                <Button
                  size="sm"
                  icon={<Trash2 />}
                  loading={remove.isPending}
                  onClick={() => remove.mutate()}
                >
                  Delete for everyone<span className="sr-only"> “{reply.title}”</span>
                </Button>
                <Button
                  ref={keepButton}
                  size="sm"
                  variant="tertiary"
                  onClick={() => {
                    setConfirming(false)
                    focusAfterRender(deleteButton)
                  }}
                >
                  Keep it
                </Button>
              </>
            ) : (
              <Button
                ref={deleteButton}
                size="sm"
                variant="tertiary"
                icon={<Trash2 />}
                onClick={() => {
                  setConfirming(true)
                  // The safe choice first, as the design system's confirm dialog has it.
                  focusAfterRender(keepButton)
                }}
              >
                Delete<span className="sr-only"> “{reply.title}”</span>
              </Button>
            )}
            {reply.updated_by ? (
              <span className="ms-auto text-xs text-ink-muted">
                Last changed by {reply.updated_by.full_name}
              </span>
            ) : null}
          </div>
        </>
      )}
    </li>
  )
}

/** /concierge/saved-replies: the team's shared saved replies (create, edit, delete). */
export default function SavedReplies() {
  const replies = useQuery(savedRepliesQuery())
  const queryClient = useQueryClient()
  const [adding, setAdding] = useState(false)
  const heading = useRef<HTMLHeadingElement>(null)
  const newButton = useRef<HTMLButtonElement>(null)
  const focusAfterRender = useFocusAfterRender()
  const stopAdding = () => {
    setAdding(false)
    focusAfterRender(newButton)
  }
  return (
    <div className="flex max-w-3xl flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Heading ref={heading} level={1} size="lg" tabIndex={-1} className="outline-none">
          Saved replies
        </Heading>
        {!adding ? (
          <Button ref={newButton} size="sm" icon={<Plus />} onClick={() => setAdding(true)}>
            New saved reply
          </Button>
        ) : null}
      </div>
      <Paragraph size="sm" tone="muted">
        Shared by every concierge. In a reply, press Ctrl + / (⌘ + / on a Mac) and type to find one.{' '}
        {PLACEHOLDER_HELP}
      </Paragraph>
      {adding ? (
        <section
          aria-label="New saved reply"
          className="rounded-2xl border border-primary-200 bg-primary-50/50 p-4 sm:p-5"
        >
          <ReplyForm
            initial={{ title: '', body: '' }}
            submitLabel="Add saved reply"
            onCancel={stopAdding}
            onSave={async (input) => {
              await createSavedReply(input)
              await queryClient.invalidateQueries({ queryKey: deskKeys.savedReplies() })
              stopAdding()
            }}
          />
        </section>
      ) : null}
      {replies.isPending ? (
        <Skeleton height="8rem" className="rounded-2xl" />
      ) : replies.isError ? (
        <LoadFailed
          title="We couldn’t load the saved replies"
          message={replies.error.message}
          onRetry={() => replies.refetch()}
        />
      ) : replies.data.length === 0 ? (
        <Paragraph tone="muted">No saved replies yet.</Paragraph>
      ) : (
        <ul aria-label="Saved replies" className="flex flex-col gap-3">
          {replies.data.map((reply) => (
            <ReplyCard key={reply.id} reply={reply} onDeleted={() => heading.current?.focus()} />
          ))}
        </ul>
      )}
    </div>
  )
}
