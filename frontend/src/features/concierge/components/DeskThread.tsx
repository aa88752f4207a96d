import { Eye } from 'lucide-react'
import {
  buildThread,
  EmptyThread,
  LoadOlderMessages,
  lastReplyAt,
  MessageList,
  NewMessagePill,
  ThreadAnnouncer,
  type ThreadEntry,
  ThreadImagesProvider,
  ThreadMessage,
  time,
  useOlderMessages,
  useThreadFollow,
} from '@/features/conversation'
import { formatWhen, relativeTime } from '@/lib/format'
import { type DeskRequest, fetchDeskOlderMessages } from '../api'

/**
 * The conversation as the concierge sees it: the employee's request details first, then the
 * messages oldest first: the employee's on the left, the concierges' on the right. Older
 * messages load on demand above them. The page opens where it is (the request's header and
 * actions first); a new message from the employee scrolls into view for a concierge at the
 * end of the thread, else waits behind a 'New message' pill, and is announced politely.
 */
export function DeskThread({ request, now }: { request: DeskRequest; now: number }) {
  const older = useOlderMessages(request, fetchDeskOlderMessages)
  const entries = buildThread(
    { ...request, messages: older.messages },
    { startsHere: !older.hasOlder },
  )
  const messages = entries.filter((entry) => entry.kind === 'message')
  const employee = request.employee.full_name
  const firstName = request.employee.first_name || employee
  const lastReply = lastReplyAt(entries)
  const seenAt = request.seen_by_employee_at
  const seenLastReply = Boolean(lastReply && seenAt && time(seenAt) >= time(lastReply))
  const follow = useThreadFollow({
    entries,
    isOwn: fromConcierge,
    whoOf: () => employee,
    openAtEnd: false,
  })
  // The pill goes once used: focus moves on to the reply, under the newest message.
  const showNewest = () => {
    follow.showNewest()
    document.querySelector<HTMLTextAreaElement>('textarea[name="reply"]')?.focus({
      preventScroll: true,
    })
  }

  return (
    <ThreadImagesProvider entries={entries}>
      <div className="flex flex-col gap-5">
        {entries.map((entry) =>
          entry.kind === 'received' ? (
            <article
              key={entry.id}
              aria-label="Request details"
              className="rounded-2xl border border-line bg-surface-muted px-4 py-3 text-sm"
            >
              <p className="mb-1 flex items-baseline gap-2 text-xs text-ink-muted">
                <span className="font-semibold text-ink">{employee}</span>
                <span>asked</span>
                <time
                  dateTime={entry.createdAt}
                  title={formatWhen(entry.createdAt, { now, capitalize: true })}
                >
                  {relativeTime(entry.createdAt, now)}
                </time>
              </p>
              <p className="whitespace-pre-line break-words text-ink">{entry.details}</p>
            </article>
          ) : null,
        )}
        <LoadOlderMessages older={older} />
        {messages.length === 0 ? (
          <EmptyThread>Your reply below starts the conversation with {firstName}.</EmptyThread>
        ) : (
          <MessageList>
            {messages.map((entry) => (
              <ThreadMessage
                key={entry.id}
                entry={entry}
                who={entry.fromUser ? employee : entry.sourceName || 'Concierge'}
                from={entry.fromUser ? 'employee' : 'concierge'}
                tone={entry.fromUser ? 'other' : 'tinted'}
                now={now}
                reopenedBy={employee}
              />
            ))}
          </MessageList>
        )}
        {seenLastReply && seenAt ? (
          <p className="-mt-2 flex items-center justify-end gap-1.5 text-xs text-ink-muted">
            <Eye aria-hidden="true" className="size-3.5" />
            Seen by {firstName} {relativeTime(seenAt, now).toLowerCase()}
          </p>
        ) : null}
        {follow.unseen ? (
          <div className="sticky bottom-6 z-10 h-0">
            <NewMessagePill onClick={showNewest} />
          </div>
        ) : null}
        <div ref={follow.endRef} aria-hidden="true" className="-mt-5 scroll-mb-6" />
        <ThreadAnnouncer text={follow.announcement} />
      </div>
    </ThreadImagesProvider>
  )
}

/** A concierge's message (any concierge's): the desk's own side of the thread. */
function fromConcierge(entry: ThreadEntry): boolean {
  return entry.kind === 'message' && !entry.fromUser
}
