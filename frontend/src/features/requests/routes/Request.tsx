import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, SearchX } from 'lucide-react'
import { useEffect, useMemo, useRef } from 'react'
import { useParams } from 'react-router'
import {
  ASSISTANT_NAME,
  Button,
  CategoryIcon,
  Heading,
  LoadFailed,
  Paragraph,
  Skeleton,
  SkeletonGroup,
  WaitingForConnection,
} from '@/design-system'
import {
  buildThread,
  ExpectReplyBy,
  fetchOlderMessages,
  isNotFound,
  NewMessagePill,
  parseRequestId,
  REQUEST_POLL_MS,
  type RequestItem,
  requestedAgo,
  requestQuery,
  requestSummaryQuery,
  StatusBadge,
  ThreadAnnouncer,
  type ThreadEntry,
  useKeyboardOpen,
  useOlderMessages,
  useThreadFollow,
} from '@/features/conversation'
import { RetentionNotice } from '@/features/privacy'
import { useCurrentUser } from '@/lib/currentUser'
import { formatWhen } from '@/lib/format'
import { waitsForConnection } from '@/lib/queryClient'
import { useNow } from '@/lib/useNow'
import { MessageComposer } from '../components/MessageComposer'
import { MessageThread } from '../components/MessageThread'
import { RateRequest } from '../components/RateRequest'
import { SeenBy } from '../components/SeenBy'

/**
 * Request (spec §2): header with name, status and requested time; the thread (spec §4 'Request
 * thread'); the message composer. The request is refetched every 15 s while the page is visible.
 */
export default function Request() {
  const id = parseRequestId(useParams().requestId)
  return (
    <div className="mx-auto flex w-full max-w-3xl flex-col gap-6">
      <Button
        to="/requests"
        variant="tertiary"
        size="sm"
        icon={<ArrowLeft />}
        className="-ms-3 self-start sm:hidden"
      >
        Back to requests
      </Button>
      {id === null ? <RequestNotFound /> : <RequestScreen id={id} />}
    </div>
  )
}

function RequestScreen({ id }: { id: number }) {
  const query = useQuery({
    ...requestQuery(id),
    // Pauses while the tab is hidden (refetchIntervalInBackground is off); stops for a missing request.
    refetchInterval: (query) => (isNotFound(query.state.error) ? false : REQUEST_POLL_MS),
  })
  const { data, isPending, isError, error, refetch } = query
  if (waitsForConnection(query))
    return (
      <WaitingForConnection
        message="This request will load when you’re back online."
        headingLevel={1}
      />
    )
  if (isPending) return <RequestSkeleton />
  if (isError && !data) {
    if (isNotFound(error)) return <RequestNotFound />
    return (
      <LoadFailed
        title="We couldn’t load this request"
        headingLevel={1}
        onRetry={() => refetch()}
      />
    )
  }
  return <RequestDetail request={data} />
}

const fromEmployee = (entry: ThreadEntry) => entry.fromUser
const senderName = (entry: ThreadEntry) => entry.sourceName || ASSISTANT_NAME

function RequestDetail({ request }: { request: RequestItem }) {
  const user = useCurrentUser()
  const now = useNow()
  const older = useOlderMessages(request, fetchOlderMessages)
  const thread = useMemo(
    () => buildThread({ ...request, messages: older.messages }, { startsHere: !older.hasOlder }),
    [request, older.messages, older.hasOlder],
  )
  const summary = useQuery({
    ...requestSummaryQuery(request.id),
    enabled: Boolean(request.details?.trim()),
  })
  const follow = useThreadFollow({ entries: thread, isOwn: fromEmployee, whoOf: senderName })
  useKeyboardOpen()
  const dockRef = useRef<HTMLDivElement>(null)
  // The composer opens up when used and folds again: a reader at the end stays at the end,
  // with the newest message above it rather than under it.
  const { keepAtEnd } = follow
  useEffect(() => {
    const dock = dockRef.current
    if (!dock || typeof ResizeObserver === 'undefined') return
    const observer = new ResizeObserver(() => keepAtEnd())
    observer.observe(dock)
    return () => observer.disconnect()
  }, [keepAtEnd])
  // The pill goes once used: focus moves on to the composer, under the newest message.
  const showNewest = () => {
    follow.showNewest()
    dockRef.current?.querySelector('textarea')?.focus({ preventScroll: true })
  }
  return (
    <>
      <header className="flex items-start gap-4">
        <span className="hidden size-14 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700 sm:inline-flex">
          <CategoryIcon name={request.survey_category_icon} className="size-7" />
        </span>
        <div className="flex min-w-0 flex-col gap-2">
          <Heading level={1} size="lg">
            {request.name}
          </Heading>
          <div className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
            <StatusBadge status={request.status} />
            <time
              dateTime={request.issued_at}
              title={formatWhen(request.issued_at, { now, capitalize: true })}
            >
              {requestedAgo(request.issued_at, now)}
            </time>
            {request.survey_category_name ? <span>{request.survey_category_name}</span> : null}
          </div>
          <ExpectReplyBy at={request.expect_reply_by} now={now} />
          <SeenBy requestId={request.id} now={now} />
        </div>
      </header>
      <section aria-labelledby="request-thread" className="flex flex-col gap-4">
        <h2 id="request-thread" className="sr-only">
          Conversation
        </h2>
        <MessageThread entries={thread} now={now} older={older} summary={summary.data} />
      </section>
      {request.status === 'closed' ? (
        <>
          <RateRequest requestId={request.id} onShown={keepAtEnd} />
          <RetentionNotice requestId={request.id} />
        </>
      ) : null}
      {/* Docked at the bottom while the thread scrolls; on phones above the bottom bar, or right
          above the on-screen keyboard while it is open (the bar gives way). */}
      <div
        ref={dockRef}
        data-composer-dock=""
        className="sticky bottom-0 z-10 -mx-2 bg-linear-to-t from-canvas from-80% to-transparent px-2 pt-4 pb-3 max-sm:bottom-[calc(4rem+env(safe-area-inset-bottom))] max-sm:[html[data-keyboard-open]_&]:bottom-0"
      >
        {follow.unseen ? <NewMessagePill onClick={showNewest} /> : null}
        <MessageComposer
          requestId={request.id}
          sourceName={user.full_name}
          status={request.status}
        />
      </div>
      <div
        ref={follow.endRef}
        aria-hidden="true"
        className="-mt-6 scroll-mb-20 sm:scroll-mb-4 [html[data-keyboard-open]_&]:scroll-mb-4"
      />
      <ThreadAnnouncer text={follow.announcement} />
    </>
  )
}

function RequestNotFound() {
  return (
    <section className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center sm:py-16">
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-neutral-100 text-ink-muted">
        <SearchX aria-hidden="true" className="size-7" />
      </span>
      <Heading level={1} size="lg">
        We couldn’t find that request
      </Heading>
      <Paragraph tone="muted" className="max-w-md">
        It may have been removed, or the link may be incomplete.
      </Paragraph>
      <Button to="/requests" variant="secondary" icon={<ArrowLeft />}>
        Back to requests
      </Button>
    </section>
  )
}

function RequestSkeleton() {
  return (
    <SkeletonGroup label="Loading request" className="flex flex-col gap-6">
      <div className="flex flex-col gap-3">
        <Skeleton className="h-8 w-2/3" />
        <Skeleton shape="text" className="w-40" />
      </div>
      {[0, 1].map((i) => (
        <div key={i} className={i % 2 ? 'flex justify-end' : 'flex'}>
          <Skeleton className="h-20 w-3/4 sm:w-1/2" />
        </div>
      ))}
      <Skeleton className="h-40 w-full" />
    </SkeletonGroup>
  )
}
