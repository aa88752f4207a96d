import { useMutation, useQueryClient } from '@tanstack/react-query'
import { TextInput } from '@/design-system'
import {
  createMessage,
  type NewMessage,
  type RequestApiError,
  type RequestItem,
  requestKeys,
} from '@/lib/requests/api'
import { DraftAttachmentAndSend, useMessageDraft } from '@/lib/requests/MessageDraft'

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
  const draft = useMessageDraft(EMPTY_MESSAGE_ERROR)

  const send = useMutation<RequestItem, RequestApiError, NewMessage>({
    mutationFn: createMessage,
    onSuccess: async (request) => {
      draft.clear()
      queryClient.setQueryData(requestKeys.detail(requestId), request)
      await queryClient.invalidateQueries({ queryKey: requestKeys.all })
    },
  })

  return (
    <form
      ref={draft.formRef}
      aria-label="Send a message"
      noValidate
      onSubmit={draft.submitWith(send.isPending, (message) =>
        send.mutate({ requestId, sourceName, ...message }),
      )}
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      <TextInput
        type="textarea"
        name="message"
        label="Message"
        required
        rows={3}
        placeholder="Write a message to your concierge"
        {...draft.textField}
      />
      <DraftAttachmentAndSend draft={draft} requestId={requestId} send={send}>
        Send
      </DraftAttachmentAndSend>
    </form>
  )
}
