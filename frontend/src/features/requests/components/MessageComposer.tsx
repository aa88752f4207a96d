import { useMutation, useQueryClient } from '@tanstack/react-query'
import { Send } from 'lucide-react'
import { type FormEvent, type KeyboardEvent, useId, useRef, useState } from 'react'
import { Button, type FileUploadHandle, TextInput } from '@/design-system'
import {
  createMessage,
  type NewMessage,
  type RequestApiError,
  type RequestItem,
  requestKeys,
} from '@/lib/requests/api'
import { useSendAttemptKey } from '@/lib/requests/useSendAttemptKey'
import { ErrorBox, MessageAttachmentField, useSingleFileUpload } from '@/lib/uploads'

/** Field error when Send is pressed with nothing (or only spaces) typed (spec §5). */
export const EMPTY_MESSAGE_ERROR = 'Please enter a message'

export interface MessageComposerProps {
  requestId: number
  /** The sender's name, sent as source_name. */
  sourceName: string
}

/**
 * The message composer (spec §2 Request, §5): text required, one optional image or PDF uploaded
 * before sending, Send disabled while the file uploads. After a send the composer clears and the
 * request is refetched.
 */
export function MessageComposer({ requestId, sourceName }: MessageComposerProps) {
  const queryClient = useQueryClient()
  const upload = useSingleFileUpload()
  const fileRef = useRef<FileUploadHandle>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const errorId = useId()
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const attemptKey = useSendAttemptKey()

  const send = useMutation<RequestItem, RequestApiError, NewMessage>({
    mutationFn: createMessage,
    onSuccess: async (request) => {
      attemptKey.clear()
      setText('')
      setFieldError(null)
      upload.reset()
      fileRef.current?.reset()
      queryClient.setQueryData(requestKeys.detail(requestId), request)
      await queryClient.invalidateQueries({ queryKey: requestKeys.all })
    },
  })

  const uploading = upload.status === 'pending' || upload.status === 'uploading'

  const onSubmit = (event: FormEvent) => {
    event.preventDefault()
    if (send.isPending || uploading) return
    const body = text.trim()
    if (!body) {
      setFieldError(EMPTY_MESSAGE_ERROR)
      return
    }
    const attachmentKeys = upload.status === 'uploaded' && upload.key ? [upload.key] : []
    send.mutate({
      requestId,
      body,
      sourceName,
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

  return (
    <form
      ref={formRef}
      aria-label="Send a message"
      noValidate
      onSubmit={onSubmit}
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      <TextInput
        type="textarea"
        name="message"
        label="Message"
        required
        rows={3}
        value={text}
        error={fieldError}
        placeholder="Write a message to your concierge"
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
      <div className="flex items-center justify-end gap-3">
        <Button
          type="submit"
          icon={<Send />}
          iconPosition="end"
          loading={send.isPending}
          disabled={uploading}
          aria-describedby={send.isError ? errorId : undefined}
        >
          Send
        </Button>
      </div>
    </form>
  )
}
