import { useMemo } from 'react'
import { ASSISTANT_NAME, Assistant } from '@/design-system'
import type { OlderMessages, SummaryLine } from '@/features/conversation'
import {
  AttachmentLink,
  AttachmentThumbnail,
  attachmentKind,
  EmptyThread,
  LoadOlderMessages,
  MessageList,
  REQUEST_RECEIVED_TEXT,
  type ThreadEntry,
  ThreadImagesProvider,
  ThreadMessage,
} from '@/features/conversation'

/**
 * The message thread, oldest first, with 'Load older messages' above it when it starts
 * earlier; 'No messages yet' when empty. With the request's `summary` (its survey answers) the
 * first message lists them, an uploaded photo as a thumbnail like the messages' images and any
 * other file as a link; until then, the details as text.
 */
export function MessageThread({
  entries,
  now,
  older,
  summary,
}: {
  entries: ThreadEntry[]
  now?: number
  older?: OlderMessages
  summary?: readonly SummaryLine[]
}) {
  const summaryImages = useMemo(
    () =>
      (summary ?? []).flatMap((line) =>
        line.file && attachmentKind(line.file) === 'image' ? [line.file] : [],
      ),
    [summary],
  )
  if (entries.length === 0) {
    return (
      <EmptyThread>Your concierge will reply here. You can send a message any time.</EmptyThread>
    )
  }
  return (
    <ThreadImagesProvider entries={entries} leadingImages={summaryImages}>
      {older ? <LoadOlderMessages older={older} /> : null}
      <MessageList>
        {entries.map((entry) => (
          <ThreadMessage
            key={entry.id}
            entry={entry}
            who={entry.fromUser ? 'You' : entry.sourceName || ASSISTANT_NAME}
            from={entry.fromUser ? 'user' : 'concierge'}
            tone={entry.fromUser ? 'own' : 'other'}
            now={now}
            reopenedBy="You"
            leading={
              entry.fromUser ? null : (
                <Assistant size="sm" className="mt-6 hidden sm:block" aria-hidden="true" />
              )
            }
          >
            {entry.kind === 'received' ? (
              <div className="flex flex-col gap-2">
                <p>{REQUEST_RECEIVED_TEXT}</p>
                <RequestDetails details={entry.details} summary={summary} />
              </div>
            ) : null}
          </ThreadMessage>
        ))}
      </MessageList>
    </ThreadImagesProvider>
  )
}

/**
 * The request's answers, one per line; a photo answer is a thumbnail under its question that
 * opens the thread's image viewer, another file answer a link that opens like the thread's
 * attachments.
 */
function RequestDetails({
  details,
  summary,
}: {
  details: string
  summary?: readonly SummaryLine[]
}) {
  if (!summary || summary.length === 0) {
    return <p className="whitespace-pre-line">{details}</p>
  }
  return (
    <div data-request-answers="" className="flex flex-col">
      {summary.map((line, index) =>
        line.file && attachmentKind(line.file) === 'image' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines keep their order
          <div key={index} className="flex flex-col items-start gap-1.5 py-1">
            <p className="whitespace-pre-line">{line.label}</p>
            <AttachmentThumbnail attachment={line.file} />
          </div>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the lines keep their order
          <p key={index} className="whitespace-pre-line">
            {line.label} {line.file ? <AttachmentLink attachment={line.file} /> : line.answer}
          </p>
        ),
      )}
    </div>
  )
}
