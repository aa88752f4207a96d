import { FileText, Image as ImageIcon, MessagesSquare } from 'lucide-react'
import { Link as RouterLink } from 'react-router'
import { ASSISTANT_NAME, Assistant, cx, focusRing, formatFileSize } from '@/design-system'
import { relativeTime } from '@/lib/format'
import type { MessageAttachment } from '@/lib/requests/api'
import { REQUEST_RECEIVED_TEXT, type ThreadEntry } from '@/lib/requests/thread'
import { attachmentPath } from '@/lib/requests/wording'

/** The message thread, oldest first; 'No messages yet' when empty. */
export function MessageThread({ entries, now }: { entries: ThreadEntry[]; now?: number }) {
  if (entries.length === 0) {
    return (
      <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line-strong/60 bg-surface px-6 py-10 text-center">
        <MessagesSquare aria-hidden="true" className="size-8 text-primary-600" />
        <p className="font-semibold text-ink">No messages yet</p>
        <p className="max-w-sm text-sm text-ink-muted">
          Your concierge will reply here. You can send a message any time.
        </p>
      </div>
    )
  }
  return (
    <ol aria-label="Messages" className="flex flex-col gap-5">
      {entries.map((entry) => (
        <li
          key={entry.id}
          data-from={entry.fromUser ? 'user' : 'concierge'}
          className={cx('flex gap-3', entry.fromUser ? 'justify-end' : 'justify-start')}
        >
          {entry.fromUser ? null : (
            <Assistant size="sm" className="mt-6 hidden sm:block" aria-hidden="true" />
          )}
          <MessageBubble entry={entry} now={now} />
        </li>
      ))}
    </ol>
  )
}

function MessageBubble({ entry, now }: { entry: ThreadEntry; now?: number }) {
  const who = entry.fromUser ? 'You' : entry.sourceName || ASSISTANT_NAME
  const when = relativeTime(entry.createdAt, now)
  return (
    <article
      aria-label={`Message from ${who}`}
      className={cx(
        'flex max-w-[85%] flex-col gap-1 sm:max-w-[75%]',
        entry.fromUser ? 'items-end' : 'items-start',
      )}
    >
      <p className="flex items-baseline gap-2 px-1 text-xs text-ink-muted">
        <span className="font-semibold text-ink">{who}</span>
        {when ? (
          <time dateTime={entry.createdAt} title={new Date(entry.createdAt).toLocaleString()}>
            {when}
          </time>
        ) : null}
      </p>
      <div
        className={cx(
          'flex flex-col gap-3 rounded-2xl px-4 py-3 text-base break-words shadow-xs',
          entry.fromUser
            ? 'rounded-tr-sm bg-primary-600 text-white [&_a]:text-white'
            : 'rounded-tl-sm border border-line bg-surface text-ink [&_a]:text-primary-700',
          '[&_a]:underline [&_a]:underline-offset-2',
        )}
      >
        {entry.kind === 'received' ? (
          <div className="flex flex-col gap-2">
            <p>{REQUEST_RECEIVED_TEXT}</p>
            <p className="whitespace-pre-line">{entry.details}</p>
          </div>
        ) : (
          <>
            {entry.bodyHtml ? (
              <div
                // body_html is sanitised on the server (only <a href> and <br> survive), so it is
                // safe to render as HTML here. Newlines already arrive as <br>.
                // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server side (see above)
                dangerouslySetInnerHTML={{ __html: entry.bodyHtml }}
              />
            ) : null}
            {entry.attachments.length > 0 ? (
              <AttachmentList attachments={entry.attachments} fromUser={entry.fromUser} />
            ) : null}
          </>
        )}
      </div>
    </article>
  )
}

function AttachmentList({
  attachments,
  fromUser,
}: {
  attachments: MessageAttachment[]
  fromUser: boolean
}) {
  return (
    <ul aria-label="Attachments" className="flex flex-col gap-2">
      {attachments.map((attachment) => {
        const Icon = attachment.content_type.startsWith('image/') ? ImageIcon : FileText
        return (
          <li key={attachment.key}>
            <RouterLink
              to={attachmentPath(attachment.key)}
              className={cx(
                'flex items-center gap-2 rounded-xl px-3 py-2 text-sm no-underline!',
                fromUser
                  ? 'bg-white/15 text-white hover:bg-white/25'
                  : 'bg-primary-50 text-primary-800 hover:bg-primary-100',
                focusRing,
              )}
            >
              <Icon aria-hidden="true" className="size-4 shrink-0" />
              <span className="min-w-0 truncate font-semibold">{attachment.filename}</span>
              {attachment.size != null ? (
                <span className="shrink-0 tabular-nums opacity-80">
                  {formatFileSize(attachment.size)}
                </span>
              ) : null}
            </RouterLink>
          </li>
        )
      })}
    </ul>
  )
}
