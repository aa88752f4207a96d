import { cx, TextInput } from '@/design-system'
import {
  DraftAttachmentAndSend,
  dropTargetClass,
  useMessageDraft,
} from '@/lib/requests/MessageDraft'
import { type NewReply, sendReply } from '../api'
import { useDeskAction } from '../lib/useDeskAction'

export const EMPTY_REPLY_ERROR = 'Please write a reply'

/**
 * The reply to the employee: text, plus one optional image or PDF through the same upload
 * pipeline as the employee's (uploaded first, for this request). Each send attempt carries an
 * Idempotency-Key, reused when the same reply is retried after a failure, so it posts once.
 */
export function ReplyComposer({ requestId, firstName }: { requestId: number; firstName: string }) {
  const draft = useMessageDraft(EMPTY_REPLY_ERROR)
  const send = useDeskAction<NewReply>(requestId, sendReply, {
    toastErrors: false,
    onSuccess: () => {
      draft.clear()
      draft.focusText()
    },
  })

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
        description={`${name} sees this in the request and gets an email if they don't read it soon.`}
        required
        rows={4}
        {...draft.textField}
      />
      <DraftAttachmentAndSend
        draft={draft}
        requestId={requestId}
        send={send}
        hint="Ctrl + Enter to send"
      >
        Send reply
      </DraftAttachmentAndSend>
    </form>
  )
}
