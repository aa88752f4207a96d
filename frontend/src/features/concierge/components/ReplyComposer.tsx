import { Send } from 'lucide-react'
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react'
import { Button, type FileUploadHandle, TextInput } from '@/design-system'
import { useSendAttemptKey } from '@/lib/requests/useSendAttemptKey'
import { ErrorBox, MessageAttachmentField, useSingleFileUpload } from '@/lib/uploads'
import { type NewReply, sendReply } from '../api'
import { useDeskAction } from '../lib/useDeskAction'

export const EMPTY_REPLY_ERROR = 'Please write a reply'

/**
 * The reply to the employee: text, plus one optional image or PDF through the same upload
 * pipeline as the employee's (uploaded first, for this request). Each send attempt carries an
 * Idempotency-Key, reused when the same reply is retried after a failure, so it posts once.
 */
export function ReplyComposer({ requestId, firstName }: { requestId: number; firstName: string }) {
  const upload = useSingleFileUpload()
  const fileRef = useRef<FileUploadHandle>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const errorId = useId()
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const attemptKey = useSendAttemptKey()

  const send = useDeskAction<NewReply>(requestId, sendReply, {
    toastErrors: false,
    onSuccess: () => {
      attemptKey.clear()
      setText('')
      setFieldError(null)
      upload.reset()
      fileRef.current?.reset()
    },
  })

  const uploading = upload.status === 'pending' || upload.status === 'uploading'

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (send.isPending || uploading) return
    const body = text.trim()
    if (!body) {
      setFieldError(EMPTY_REPLY_ERROR)
      return
    }
    const attachmentKeys = upload.status === 'uploaded' && upload.key ? [upload.key] : []
    send.mutate({
      requestId,
      body,
      attachmentKeys,
      idempotencyKey: attemptKey.keyFor(body, attachmentKeys),
    })
  }

  // Ctrl/⌘ + Enter sends; Enter alone adds a line.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      formRef.current?.requestSubmit()
    }
  }

  const name = firstName || 'the employee'
  return (
    <form
      ref={formRef}
      aria-label="Reply to the employee"
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      <TextInput
        type="textarea"
        name="reply"
        label={`Reply to ${name}`}
        description={`${name} sees this in the request and gets an email if they don't read it soon.`}
        required
        rows={4}
        value={text}
        error={fieldError}
        onKeyDown={onKeyDown}
        onChange={(event) => {
          setText(event.target.value)
          if (fieldError && event.target.value.trim()) setFieldError(null)
        }}
      />
      <MessageAttachmentField
        ref={fileRef}
        upload={upload}
        requestId={requestId}
        isDisabled={send.isPending}
      />
      {send.isError ? <ErrorBox id={errorId} message={send.error.message} /> : null}
      <div className="flex flex-wrap items-center justify-end gap-3">
        <span className="hidden text-xs text-ink-muted sm:inline">Ctrl + Enter to send</span>
        <Button
          type="submit"
          icon={<Send />}
          iconPosition="end"
          loading={send.isPending}
          disabled={uploading}
          aria-describedby={send.isError ? errorId : undefined}
        >
          Send reply
        </Button>
      </div>
    </form>
  )
}
