import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CircleCheckBig, Plus } from 'lucide-react'
import { useContext } from 'react'
import type { RequestStatus } from '@/api/enums'
import { Button, cx, TextInput } from '@/design-system'
import {
  createMessage,
  DraftAttachmentAndSend,
  dropTargetClass,
  type NewMessage,
  RequestApiError,
  type RequestItem,
  requestKeys,
  useMessageDraft,
} from '@/features/conversation'
import { INTRO_SURVEY_ID, INTRO_SURVEY_NAME, RequestDrawerContext } from '@/features/request-drawer'

/** Field error when Send is pressed with nothing (or only spaces) typed (spec §5). */
export const EMPTY_MESSAGE_ERROR = 'Please enter a message'
/** What the composer says on a Completed request, before anything is sent. */
export const COMPLETED_NOTICE = 'This request is completed. Sending a message will reopen it.'
export const REOPEN_AND_SEND = 'Reopen and send'

export interface MessageComposerProps {
  requestId: number
  /** The sender's name, sent as source_name. */
  sourceName: string
  /** The request's status: on a Completed request the message must reopen it. */
  status?: RequestStatus
}

/**
 * The message composer (spec §2 Request, §5): text required, one optional image or PDF uploaded
 * before sending (chosen, dropped on the composer or pasted), Send disabled while the file
 * uploads. After a send the composer clears, focus stays in the text and the request is
 * refetched. On a Completed request nothing reopens it silently: the composer says so and
 * its button is 'Reopen and send' (or 'Start a new request' instead).
 */
export function MessageComposer({ requestId, sourceName, status }: MessageComposerProps) {
  const queryClient = useQueryClient()
  const requestDrawer = useContext(RequestDrawerContext)
  const draft = useMessageDraft(EMPTY_MESSAGE_ERROR)
  const completed = status === 'closed'

  const send = useMutation<RequestItem, RequestApiError, NewMessage>({
    mutationFn: createMessage,
    onSuccess: (request) => {
      draft.clear()
      draft.focusText()
      queryClient.setQueryData(requestKeys.detail(requestId), request)
      // The lists refresh in the background: the composer is ready for the next message now.
      void queryClient.invalidateQueries({ queryKey: requestKeys.all })
    },
    onError: (error) => {
      // Completed meanwhile (by the concierge): show the request as it is now.
      if (error instanceof RequestApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: requestKeys.detail(requestId) })
      }
    },
    onSettled: () => {
      // The busy Send button gave up focus: the next message is written in the text.
      if (!draft.formRef.current?.contains(document.activeElement)) draft.focusText()
    },
  })

  return (
    <form
      ref={draft.formRef}
      aria-label="Send a message"
      data-composer=""
      noValidate
      onSubmit={draft.submitWith(send.isPending, (message) =>
        send.mutate({ requestId, sourceName, reopen: completed, ...message }),
      )}
      {...draft.dropZone}
      className={cx(
        'flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-md transition-shadow sm:p-5',
        dropTargetClass(draft),
      )}
    >
      {completed ? (
        <div className="flex flex-col gap-2 rounded-xl border border-success-200 bg-success-50 p-3 text-sm text-ink sm:flex-row sm:items-center">
          <p className="flex flex-1 items-start gap-2 font-medium">
            <CircleCheckBig
              aria-hidden="true"
              className="mt-0.5 size-4 shrink-0 text-success-700"
            />
            {COMPLETED_NOTICE}
          </p>
          {requestDrawer ? (
            <Button
              variant="tertiary"
              size="sm"
              icon={<Plus />}
              className="self-start sm:self-auto"
              onClick={() =>
                requestDrawer.open({ surveyId: INTRO_SURVEY_ID, surveyName: INTRO_SURVEY_NAME })
              }
            >
              Start a new request
            </Button>
          ) : null}
        </div>
      ) : null}
      <TextInput
        type="textarea"
        name="message"
        label="Message"
        required
        rows={2}
        inputClassName="min-h-16! max-sm:max-h-40"
        placeholder="Write a message to your concierge"
        {...draft.textField}
      />
      <DraftAttachmentAndSend draft={draft} requestId={requestId} send={send}>
        {completed ? REOPEN_AND_SEND : 'Send'}
      </DraftAttachmentAndSend>
    </form>
  )
}
