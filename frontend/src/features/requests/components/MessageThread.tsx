import { ASSISTANT_NAME, Assistant } from '@/design-system'
import { ThreadImagesProvider } from '@/lib/requests/ImageViewer'
import {
  EmptyThread,
  LoadOlderMessages,
  MessageList,
  ThreadMessage,
} from '@/lib/requests/ThreadParts'
import { REQUEST_RECEIVED_TEXT, type ThreadEntry } from '@/lib/requests/thread'
import type { OlderMessages } from '@/lib/requests/useOlderMessages'

/**
 * The message thread, oldest first, with 'Load older messages' above it when it starts
 * earlier; 'No messages yet' when empty.
 */
export function MessageThread({
  entries,
  now,
  older,
}: {
  entries: ThreadEntry[]
  now?: number
  older?: OlderMessages
}) {
  if (entries.length === 0) {
    return (
      <EmptyThread>Your concierge will reply here. You can send a message any time.</EmptyThread>
    )
  }
  return (
    <ThreadImagesProvider entries={entries}>
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
                <p className="whitespace-pre-line">{entry.details}</p>
              </div>
            ) : null}
          </ThreadMessage>
        ))}
      </MessageList>
    </ThreadImagesProvider>
  )
}
