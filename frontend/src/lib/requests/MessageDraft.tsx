/**
 * A message being written, shared by the employee's composer and the desk's reply: the text
 * (required), one optional image or PDF uploaded for the request before sending, Ctrl/⌘ + Enter
 * to send, and one Idempotency-Key per send attempt (a retry of the same message reuses it, so
 * it posts once). Each side sends the draft with its own call.
 */
import { Send } from 'lucide-react'
import {
  type ChangeEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useId,
  useRef,
  useState,
} from 'react'
import { Button, type FileUploadHandle, type TextInputElement } from '@/design-system'
import { ErrorBox, MessageAttachmentField, useSingleFileUpload } from '@/lib/uploads'
import { useSendAttemptKey } from './useSendAttemptKey'

export interface DraftToSend {
  body: string
  attachmentKeys: string[]
  idempotencyKey: string
}

export function useMessageDraft(emptyError: string) {
  const upload = useSingleFileUpload()
  const fileRef = useRef<FileUploadHandle>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const attemptKey = useSendAttemptKey()
  const uploading = upload.status === 'pending' || upload.status === 'uploading'

  /** After a send: an empty composer, and the next message gets a new key. */
  const clear = () => {
    attemptKey.clear()
    setText('')
    setFieldError(null)
    upload.reset()
    fileRef.current?.reset()
  }

  const submitWith =
    (sending: boolean, send: (draft: DraftToSend) => void) => (event: FormEvent) => {
      event.preventDefault()
      if (sending || uploading) return
      const body = text.trim()
      if (!body) {
        setFieldError(emptyError)
        return
      }
      const attachmentKeys = upload.status === 'uploaded' && upload.key ? [upload.key] : []
      send({ body, attachmentKeys, idempotencyKey: attemptKey.keyFor(body, attachmentKeys) })
    }

  // Ctrl/⌘ + Enter sends; Enter alone adds a line.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      formRef.current?.requestSubmit()
    }
  }

  const onChange = (event: ChangeEvent<TextInputElement>) => {
    setText(event.target.value)
    if (fieldError && event.target.value.trim()) setFieldError(null)
  }

  return {
    upload,
    fileRef,
    formRef,
    uploading,
    clear,
    submitWith,
    textField: { value: text, error: fieldError, onKeyDown, onChange },
  }
}

export type MessageDraft = ReturnType<typeof useMessageDraft>

/** The attachment field, a failed send's message and the send button, below the text. */
export function DraftAttachmentAndSend({
  draft,
  requestId,
  send,
  hint,
  children,
}: {
  draft: MessageDraft
  requestId: number
  /** The send mutation: pending while sending; its error says why the last send failed. */
  send: { isPending: boolean; error: Error | null }
  hint?: string
  /** The send button's label. */
  children: ReactNode
}) {
  const errorId = useId()
  const sending = send.isPending
  const error = send.error?.message
  return (
    <>
      <MessageAttachmentField
        ref={draft.fileRef}
        upload={draft.upload}
        requestId={requestId}
        isDisabled={sending}
      />
      {error ? <ErrorBox id={errorId} message={error} /> : null}
      <div className="flex flex-wrap items-center justify-end gap-3">
        {hint ? <span className="hidden text-xs text-ink-muted sm:inline">{hint}</span> : null}
        <Button
          type="submit"
          icon={<Send />}
          iconPosition="end"
          loading={sending}
          disabled={draft.uploading}
          aria-describedby={error ? errorId : undefined}
        >
          {children}
        </Button>
      </div>
    </>
  )
}
