/**
 * The Dashboard's latest request (spec §2): the newest in-progress request, else the newest
 * queued one, under 'Your request is in progress', 'Your latest request' or 'You have no open
 * requests'.
 */
import { useQuery } from '@tanstack/react-query'
import { ChevronRight } from 'lucide-react'
import { useId } from 'react'
import { Link as RouterLink } from 'react-router'
import {
  CategoryIcon,
  cx,
  focusRing,
  Heading,
  Paragraph,
  RetryAlert,
  Skeleton,
  SkeletonGroup,
  WaitingForConnection,
} from '@/design-system'
import { type RequestListItem, requestListQuery, UnreadMark } from '@/features/conversation'
import { relativeTime, statusLabel } from '@/lib/format'
import { waitsForConnection } from '@/lib/queryClient'

export const LATEST_HEADINGS = {
  inProgress: 'Your request is in progress',
  latest: 'Your latest request',
  none: 'You have no open requests',
} as const

/** Picks the request to show and its heading: in-progress preferred over queued. */
export function pickLatestRequest(
  inProgress: RequestListItem[],
  open: RequestListItem[],
): { request: RequestListItem | null; heading: string } {
  if (inProgress.length > 0)
    return { request: newest(inProgress), heading: LATEST_HEADINGS.inProgress }
  if (open.length > 0) return { request: newest(open), heading: LATEST_HEADINGS.latest }
  return { request: null, heading: LATEST_HEADINGS.none }
}

function newest(list: RequestListItem[]): RequestListItem {
  return list.reduce((best, r) => (Date.parse(r.issued_at) > Date.parse(best.issued_at) ? r : best))
}

const statusTone: Record<string, string> = {
  'In Progress': 'bg-accent-100 text-accent-800',
  'In Queue': 'bg-primary-100 text-primary-800',
  Completed: 'bg-success-100 text-success-800',
  Unknown: 'bg-neutral-100 text-neutral-700',
}

export function LatestRequest() {
  const headingId = useId()
  const inProgress = useQuery(requestListQuery('in_progress'))
  const open = useQuery(requestListQuery('open'))

  const retry = () => {
    if (inProgress.isError) void inProgress.refetch()
    if (open.isError) void open.refetch()
  }
  // A background refetch that fails keeps the card it had; only a list never loaded fails here.
  if (inProgress.isLoadingError || open.isLoadingError) {
    return <RetryAlert message="We couldn't load your latest request." onRetry={retry} />
  }
  if (waitsForConnection(inProgress) || waitsForConnection(open)) {
    return (
      <WaitingForConnection
        message="Your latest request will load when you’re back online."
        compact
      />
    )
  }
  if (inProgress.isPending || open.isPending) {
    return (
      <SkeletonGroup label="Loading your latest request" className="flex flex-col gap-3">
        <Skeleton shape="text" className="w-56" />
        <Skeleton className="h-24 w-full" />
      </SkeletonGroup>
    )
  }

  const { request, heading } = pickLatestRequest(inProgress.data, open.data)
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3">
      <Heading level={2} id={headingId}>
        {heading}
      </Heading>
      {request ? (
        <RequestCard request={request} />
      ) : (
        <Paragraph tone="muted">
          When you create a request, you can follow its progress right here.
        </Paragraph>
      )}
    </section>
  )
}

/** The request's card; one with a reply the employee has not opened reads bold, marked 'New reply'. */
function RequestCard({ request }: { request: RequestListItem }) {
  const label = statusLabel(request.status)
  const when = relativeTime(request.issued_at)
  const { unread } = request
  return (
    <RouterLink
      to={`/requests/${request.id}`}
      data-unread={unread || undefined}
      className={cx(
        'group flex items-center gap-4 rounded-2xl border bg-surface p-4 shadow-xs transition-colors hover:border-primary-400 hover:bg-primary-50/40 motion-reduce:transition-none sm:p-5',
        unread ? 'border-accent-300' : 'border-line',
        focusRing,
      )}
    >
      <span
        aria-hidden="true"
        className="inline-flex size-12 shrink-0 items-center justify-center rounded-2xl bg-primary-50 text-primary-700"
      >
        <CategoryIcon name={request.survey_category_icon} className="size-6" />
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1">
        <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
          <span
            className={cx(
              'line-clamp-2 min-w-0 text-base break-words text-ink',
              unread ? 'font-bold' : 'font-semibold',
            )}
          >
            {request.name}
          </span>
          {unread ? <UnreadMark /> : null}
        </span>
        <span
          className={cx(
            'flex flex-wrap items-center gap-x-3 gap-y-1 text-sm',
            unread ? 'font-semibold text-ink' : 'text-ink-muted',
          )}
        >
          <span
            className={cx(
              'inline-flex rounded-full px-2.5 py-0.5 text-xs font-semibold',
              statusTone[label],
            )}
          >
            {label}
          </span>
          {when ? (
            <span>
              Requested{' '}
              <time dateTime={request.issued_at}>{when === 'Just now' ? 'just now' : when}</time>
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
