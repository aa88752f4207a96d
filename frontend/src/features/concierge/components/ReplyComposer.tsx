import { MessageSquareText } from 'lucide-react'
import { type ChangeEvent, type KeyboardEvent, useRef, useState } from 'react'
import { Button, cx, TextInput, type TextInputElement } from '@/design-system'
import { DraftAttachmentAndSend, dropTargetClass, useMessageDraft } from '@/features/conversation'
import { sendReply, withReply } from '../api'
import { useDeskWrite } from '../lib/useDeskAction'
import { SavedReplyPicker } from './SavedReplyPicker'

export const EMPTY_REPLY_ERROR = 'Please write a reply'

/** Ctrl + / (⌘ + / on a Mac) in the reply opens the saved replies. */
function isSavedReplyShortcut(event: KeyboardEvent) {
  return event.key === '/' && (event.ctrlKey || event.metaKey) && !event.altKey
}

/**
 * The reply to the employee: text, plus one optional image or PDF through the same upload
 * pipeline as the employee's (uploaded first, for this request). Each send attempt carries an
 * Idempotency-Key, reused when the same reply is retried after a failure, so it posts once.
 * A saved reply (Ctrl + /) is inserted at the cursor, filled in for this request. The answer
 * (the reply and what it changed) is merged into the cached request, not a whole new request.
 */
export function ReplyComposer({ requestId, firstName }: { requestId: number; firstName: string }) {
  const draft = useMessageDraft(EMPTY_REPLY_ERROR)
  const send = useDeskWrite(
    requestId,
    sendReply,
    (cached, reply) => cached && withReply(cached, reply),
    {
      toastErrors: false,
      onSuccess: () => {
        draft.clear()
        draft.focusText()
      },
    },
  )
  const [picking, setPicking] = useState(false)
  const cursor = useRef<[number, number] | null>(null)

  const textarea = () =>
    draft.formRef.current?.elements.namedItem('reply') as HTMLTextAreaElement | null

  const openPicker = () => {
    const field = textarea()
    cursor.current = field ? [field.selectionStart, field.selectionEnd] : null
    setPicking(true)
  }

  const closePicker = (focusAt?: number) => {
    setPicking(false)
    requestAnimationFrame(() => {
      const field = textarea()
      field?.focus()
      if (field && focusAt !== undefined) field.setSelectionRange(focusAt, focusAt)
    })
  }

  const insert = (text: string) => {
    const value = String(draft.textField.value ?? '')
    const [start, end] = cursor.current ?? [value.length, value.length]
    const next = value.slice(0, start) + text + value.slice(end)
    draft.textField.onChange({ target: { value: next } } as ChangeEvent<TextInputElement>)
    closePicker(start + text.length)
  }

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (isSavedReplyShortcut(event)) {
      event.preventDefault()
      openPicker()
      return
    }
    draft.textField.onKeyDown(event)
  }

  const name = firstName || 'the employee'
  return (
    <form
      ref={draft.formRef}
      aria-label="Reply to the employee"
      noValidate
      onSubmit={draft.submitWith(send.isPending, (reply) => send.mutate({ requestId, ...reply }))}
      {...draft.dropZone}
      className={cx(
        'flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5',
        dropTargetClass(draft),
      )}
    >
      <TextInput
        type="textarea"
        name="reply"
        label={`Reply to ${name}`}
        description={`${firstName || 'The employee'} sees this in the request and gets an email if they don't read it soon.`}
        required
        rows={4}
        {...draft.textField}
        onKeyDown={onKeyDown}
      />
      {picking ? (
        <SavedReplyPicker requestId={requestId} onInsert={insert} onClose={() => closePicker()} />
      ) : (
        <Button
          type="button"
          variant="tertiary"
          size="sm"
          icon={<MessageSquareText />}
          onClick={openPicker}
          aria-keyshortcuts="Control+/"
          className="self-start"
        >
          Saved replies <span className="text-xs font-normal text-ink-muted">(Ctrl + /)</span>
        </Button>
      )}
      <DraftAttachmentAndSend
        draft={draft}
        requestId={requestId}
        send={send}
        sentText="Reply sent."
        hint="Ctrl + Enter to send"
      >
        Send reply
      </DraftAttachmentAndSend>
    </form>
  )
}
