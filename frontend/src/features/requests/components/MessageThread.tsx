import { ASSISTANT_NAME, Assistant } from '@/design-system'
import { EmptyThread, MessageList, ThreadMessage } from '@/lib/requests/ThreadParts'
import { REQUEST_RECEIVED_TEXT, type ThreadEntry } from '@/lib/requests/thread'

/** The message thread, oldest first; 'No messages yet' when empty. */
export function MessageThread({ entries, now }: { entries: ThreadEntry[]; now?: number }) {
  if (entries.length === 0) {
    return (
      <EmptyThread>Your concierge will reply here. You can send a message any time.</EmptyThread>
    )
  }
  return (
    <MessageList>
      {entries.map((entry) => (
        <ThreadMessage
          key={entry.id}
          entry={entry}
          who={entry.fromUser ? 'You' : entry.sourceName || ASSISTANT_NAME}
          from={entry.fromUser ? 'user' : 'concierge'}
          tone={entry.fromUser ? 'own' : 'other'}
          now={now}
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
  )
}
