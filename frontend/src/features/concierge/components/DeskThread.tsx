import { Eye, FileText, Image as ImageIcon, MessagesSquare } from 'lucide-react'
import { cx, focusRing, formatFileSize } from '@/design-system'
import { relativeTime } from '@/lib/format'
import { attachmentPath } from '@/lib/requests/wording'
import type { DeskMessage, DeskRequest } from '../api'

type Attachment = DeskMessage['attachments'][number]

function time(iso: string): number {
  const t = Date.parse(iso)
  return Number.isFinite(t) ? t : 0
}

/** The thread oldest first (ties keep the server's order). */
export function sortMessages(messages: DeskMessage[]): DeskMessage[] {
  return messages
    .map((message, index) => ({ message, index }))
    .sort(
      (a, b) =>
        time(a.message.external_created_at) - time(b.message.external_created_at) ||
        a.index - b.index,
    )
    .map(({ message }) => message)
}

/** Attachments with metadata, plus bare keys the server sent without it. */
function attachmentsOf(message: DeskMessage): Attachment[] {
  const known = message.attachments ?? []
  const seen = new Set(known.map((a) => a.key))
  const bare = (message.attachment_keys ?? [])
    .filter((key) => !seen.has(key))
    .map((key) => ({ key, filename: key.split('/').pop() || key, content_type: '', size: null }))
  return [...known, ...bare]
}

/**
 * The conversation as the concierge sees it: the employee's request details first, then the
 * messages oldest first: the employee's on the left, the concierges' on the right.
 */
export function DeskThread({ request, now }: { request: DeskRequest; now: number }) {
  const messages = sortMessages(request.messages)
  const employee = request.employee.full_name
  const lastConciergeAt = [...messages]
    .reverse()
    .find((m) => m.source !== 'user')?.external_created_at
  const seenAt = request.seen_by_employee_at
  const seenLastReply = Boolean(lastConciergeAt && seenAt && time(seenAt) >= time(lastConciergeAt))

  return (
    <div className="flex flex-col gap-5">
      {request.details?.trim() ? (
        <article
          aria-label="Request details"
          className="rounded-2xl border border-line bg-surface-muted px-4 py-3 text-sm"
        >
          <p className="mb-1 flex items-baseline gap-2 text-xs text-ink-muted">
            <span className="font-semibold text-ink">{employee}</span>
            <span>asked</span>
            <time dateTime={request.issued_at}>{relativeTime(request.issued_at, now)}</time>
          </p>
          <p className="whitespace-pre-line break-words text-ink">{request.details}</p>
        </article>
      ) : null}
      {messages.length === 0 ? (
        <div className="flex flex-col items-center gap-2 rounded-2xl border border-dashed border-line-strong/60 bg-surface px-6 py-8 text-center">
          <MessagesSquare aria-hidden="true" className="size-7 text-primary-600" />
          <p className="font-semibold text-ink">No messages yet</p>
          <p className="max-w-sm text-sm text-ink-muted">
            Your reply below starts the conversation with {request.employee.first_name || employee}.
          </p>
        </div>
      ) : (
        <ol aria-label="Messages" className="flex flex-col gap-4">
          {messages.map((message) => {
            const fromEmployee = message.source === 'user'
            const who = fromEmployee ? employee : message.source_name || 'Concierge'
            const when = relativeTime(message.external_created_at, now)
            const attachments = attachmentsOf(message)
            return (
              <li
                key={message.id}
                data-from={fromEmployee ? 'employee' : 'concierge'}
                className={cx('flex', fromEmployee ? 'justify-start' : 'justify-end')}
              >
                <article
                  aria-label={`Message from ${who}`}
                  className={cx(
                    'flex max-w-[90%] flex-col gap-1 sm:max-w-[80%]',
                    fromEmployee ? 'items-start' : 'items-end',
                  )}
                >
                  <p className="flex items-baseline gap-2 px-1 text-xs text-ink-muted">
                    <span className="font-semibold text-ink">{who}</span>
                    {when ? (
                      <time
                        dateTime={message.external_created_at}
                        title={new Date(message.external_created_at).toLocaleString()}
                      >
                        {when}
                      </time>
                    ) : null}
                  </p>
                  <div
                    className={cx(
                      'flex flex-col gap-3 rounded-2xl px-4 py-3 text-base break-words shadow-xs',
                      '[&_a]:text-primary-700 [&_a]:underline [&_a]:underline-offset-2',
                      fromEmployee
                        ? 'rounded-tl-sm border border-line bg-surface text-ink'
                        : 'rounded-tr-sm border border-primary-100 bg-primary-50 text-ink',
                    )}
                  >
                    {message.body_html ? (
                      <div
                        // body_html is sanitised on the server (only <a href> and <br> survive).
                        // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised server side
                        dangerouslySetInnerHTML={{ __html: message.body_html }}
                      />
                    ) : null}
                    {attachments.length > 0 ? <AttachmentLinks attachments={attachments} /> : null}
                  </div>
                </article>
              </li>
            )
          })}
        </ol>
      )}
      {seenLastReply && seenAt ? (
        <p className="-mt-2 flex items-center justify-end gap-1.5 text-xs text-ink-muted">
          <Eye aria-hidden="true" className="size-3.5" />
          Seen by {request.employee.first_name || employee}{' '}
          {relativeTime(seenAt, now).toLowerCase()}
        </p>
      ) : null}
    </div>
  )
}

/** Attachment links: each opens the file in a new tab, so the request stays open here. */
export function AttachmentLinks({ attachments }: { attachments: Attachment[] }) {
  return (
    <ul aria-label="Attachments" className="flex flex-col gap-2">
      {attachments.map((attachment) => {
        const Icon = attachment.content_type.startsWith('image/') ? ImageIcon : FileText
        return (
          <li key={attachment.key}>
            <a
              href={attachmentPath(attachment.key)}
              target="_blank"
              rel="noopener"
              className={cx(
                'flex items-center gap-2 rounded-xl bg-surface px-3 py-2 text-sm text-primary-800 no-underline! ring-1 ring-line hover:bg-primary-100',
                focusRing,
              )}
            >
              <Icon aria-hidden="true" className="size-4 shrink-0" />
              <span className="min-w-0 truncate font-semibold">{attachment.filename}</span>
              {attachment.size != null ? (
                <span className="shrink-0 text-ink-muted tabular-nums">
                  {formatFileSize(attachment.size)}
                </span>
              ) : null}
            </a>
          </li>
        )
      })}
    </ul>
  )
}
