import { ChevronRight, MessageSquare } from 'lucide-react'
import { Link as RouterLink } from 'react-router'
import { CategoryIcon, cx, focusRing } from '@/design-system'
import type { RequestListItem } from '@/features/conversation'
import { lastMessageAgo, requestedAgo, StatusBadge, UnreadMark } from '@/features/conversation'

/**
 * One request in the list: category icon, name, status, requested time and last message hint.
 * A request with a reply the employee has not opened reads bold, with a 'New reply' mark.
 */
export function RequestCard({ request, now }: { request: RequestListItem; now?: number }) {
  const lastMessage = request.last_message_at ? lastMessageAgo(request.last_message_at, now) : ''
  const { unread } = request
  return (
    <RouterLink
      to={`/requests/${request.id}`}
      data-request-id={request.id}
      data-unread={unread || undefined}
      className={cx(
        'group flex items-center gap-4 rounded-2xl border bg-surface p-4 shadow-xs transition-colors motion-reduce:transition-none',
        'hover:border-primary-200 hover:bg-primary-50/40 sm:p-5',
        unread ? 'border-accent-300' : 'border-line',
        focusRing,
      )}
    >
      <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
        <CategoryIcon name={request.survey_category_icon} className="size-6" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1.5">
        <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
          {/* Two lines, not one: on a phone, names that differ only at the end stay apart. */}
          <span
            className={cx(
              'me-1 line-clamp-2 min-w-0 text-ink wrap-anywhere',
              unread ? 'font-bold' : 'font-semibold',
            )}
          >
            {request.name}
          </span>
          {unread ? <UnreadMark /> : null}
          <StatusBadge status={request.status} />
        </span>
        <span
          className={cx(
            'flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm',
            unread ? 'font-semibold text-ink' : 'text-ink-muted',
          )}
        >
          {request.survey_category_name ? <span>{request.survey_category_name}</span> : null}
          <span>{requestedAgo(request.issued_at, now)}</span>
          {lastMessage ? (
            <span className="inline-flex items-center gap-1">
              <MessageSquare aria-hidden="true" className="size-3.5" />
              {lastMessage}
            </span>
          ) : null}
        </span>
      </span>
      <ChevronRight
        aria-hidden="true"
        className="size-5 shrink-0 text-ink-muted transition-transform group-hover:translate-x-0.5 motion-reduce:transition-none"
      />
    </RouterLink>
  )
}
