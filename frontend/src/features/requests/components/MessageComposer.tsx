import { useMutation, useQueryClient } from '@tanstack/react-query'
import { CircleCheckBig, Plus } from 'lucide-react'
import { type FocusEvent, useContext, useState } from 'react'
import type { RequestStatus } from '@/api/enums'
import { Button, cx, TextInput } from '@/design-system'
import {
  createMessage,
  DraftAttachmentAndSend,
  draftHasContent,
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
 *
 * Docked over the thread, it stays one line (the text with its attach and send buttons) until
 * the text is focused or the draft holds something, so the thread and the rating card keep the
 * screen; it folds again once focus leaves it empty.
 */
export function MessageComposer({ requestId, sourceName, status }: MessageComposerProps) {
  const queryClient = useQueryClient()
  const requestDrawer = useContext(RequestDrawerContext)
  const draft = useMessageDraft(EMPTY_MESSAGE_ERROR)
  const completed = status === 'closed'
  const [writing, setWriting] = useState(false)

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

  const open = writing || draftHasContent(draft, send)
  // Folds once focus leaves it, except for a dialog opened from it ('Start a new request'),
  // which gives focus back to it when it closes.
  const onBlur = (event: FocusEvent<HTMLFormElement>) => {
    const next = event.relatedTarget as Element | null
    if (event.currentTarget.contains(next) || next?.closest('[role="dialog"]')) return
    setWriting(false)
  }

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
      onBlur={onBlur}
      data-open={open ? '' : undefined}
      className={cx(
        'flex rounded-2xl border border-line bg-surface shadow-md transition-shadow',
        open ? 'flex-col gap-3 p-4 sm:p-5' : 'flex-row items-center gap-1 py-1.5 ps-1.5 pe-2',
        dropTargetClass(draft),
      )}
    >
      {completed && !open ? <p className="sr-only">{COMPLETED_NOTICE}</p> : null}
      {completed && open ? (
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
        hideLabel={!open}
        required
        rows={open ? 2 : 1}
        className={open ? undefined : 'min-w-0 flex-1'}
        inputClassName={open ? 'min-h-16! max-sm:max-h-40' : 'min-h-11! resize-none!'}
        placeholder={open ? 'Write a message to your concierge' : 'Write a message'}
        onFocus={() => setWriting(true)}
        {...draft.textField}
      />
      <DraftAttachmentAndSend
        draft={draft}
        requestId={requestId}
        send={send}
        folded={!open}
        sentText="Message sent."
      >
        {completed ? REOPEN_AND_SEND : 'Send'}
      </DraftAttachmentAndSend>
    </form>
  )
}
