import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef } from 'react'
import { Button, Paragraph, RetryAlert, Skeleton } from '@/design-system'
import { formatWhen } from '@/lib/format'
import { actionLabel, companyAuditQuery } from '../auditApi'

/** The members page's activity log (issue 27): who changed what in the company's
 * administration (members, invites, sign-in, SCIM, roster, report views and exports), newest
 * first. Never anything about people's requests. */
export function ActivityLog({ companyId }: { companyId: number }) {
  const log = useInfiniteQuery(companyAuditQuery(companyId))
  useRefreshAfterChanges(companyId)
  const heading = useRef<HTMLHeadingElement>(null)
  const showOlder = async () => {
    const shown = await log.fetchNextPage()
    if (!shown.hasNextPage) heading.current?.focus() // Show older is gone: the oldest are shown
  }
  const events = log.data?.pages.flatMap((page) => page.events) ?? []
  return (
    <section aria-labelledby="activity-log" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2
          id="activity-log"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-ink outline-none"
        >
          Activity log
        </h2>
        <Paragraph size="sm" tone="muted">
          Changes to your company's members and settings, and report exports. It never shows what
          anyone asked for.
        </Paragraph>
      </div>
      {log.isPending ? <Skeleton height="6rem" className="rounded-2xl" /> : null}
      {log.isError ? (
        <RetryAlert message={log.error.message} onRetry={() => void log.refetch()} />
      ) : null}
      {log.data && !events.length ? (
        <Paragraph size="sm" tone="muted">
          Nothing yet.
        </Paragraph>
      ) : null}
      {events.length ? (
        <ol className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-surface">
          {events.map((event) => (
            <li
              key={event.id}
              className="flex flex-wrap justify-between gap-x-4 gap-y-1 p-3 text-sm"
            >
              <span className="text-ink">
                {actionLabel(event.action)}
                {event.actor_name ? (
                  <span className="text-ink-muted"> · {event.actor_name}</span>
                ) : null}
              </span>
              <time dateTime={event.occurred_at} className="text-ink-muted">
                {formatWhen(event.occurred_at)}
              </time>
            </li>
          ))}
        </ol>
      ) : null}
      {log.hasNextPage ? (
        <Button
          variant="secondary"
          size="sm"
          className="self-start"
          loading={log.isFetchingNextPage}
          onClick={showOlder}
        >
          Show older
        </Button>
      ) : null}
    </section>
  )
}

/** Every change made on the members page (a member, an invite, sign-in, SCIM, a roster) is an
 * entry of this log: it reloads once any of them succeeds, without each knowing of it. */
function useRefreshAfterChanges(companyId: number) {
  const queryClient = useQueryClient()
  useEffect(
    () =>
      queryClient.getMutationCache().subscribe((event) => {
        if (event.type === 'updated' && event.action.type === 'success') {
          void queryClient.invalidateQueries({ queryKey: companyAuditQuery(companyId).queryKey })
        }
      }),
    [queryClient, companyId],
  )
}
