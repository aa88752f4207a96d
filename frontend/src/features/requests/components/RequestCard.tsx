import { ChevronRight, MessageSquare } from 'lucide-react'
import { Link as RouterLink } from 'react-router'
import { CategoryIcon, cx, focusRing } from '@/design-system'
import type { RequestListItem } from '@/features/conversation'
import { lastMessageAgo, requestedAgo, StatusBadge } from '@/features/conversation'

/** One request in the list: category icon, name, status, requested time and last message hint. */
export function RequestCard({ request, now }: { request: RequestListItem; now?: number }) {
  const lastMessage = request.last_message_at ? lastMessageAgo(request.last_message_at, now) : ''
  return (
    <RouterLink
      to={`/requests/${request.id}`}
      className={cx(
        'group flex items-center gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs transition-colors motion-reduce:transition-none',
        'hover:border-primary-200 hover:bg-primary-50/40 sm:p-5',
        focusRing,
      )}
    >
      <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
        <CategoryIcon name={request.survey_category_icon} className="size-6" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1.5">
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span className="min-w-0 truncate font-semibold text-ink">{request.name}</span>
          <StatusBadge status={request.status} />
        </span>
        <span className="flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm text-ink-muted">
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
