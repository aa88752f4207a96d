import { useQueries } from '@tanstack/react-query'
import { Plus } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { useSearchParams } from 'react-router'
import {
  ASSISTANT_NAME,
  Assistant,
  Button,
  Heading,
  LoadFailed,
  Paragraph,
  TabPanel,
  Tabs,
  tabIdFromLabel,
  WaitingForConnection,
} from '@/design-system'
import {
  COMPLETED_TAB_LABEL,
  inProgressHeading,
  inQueueHeading,
  type RequestListItem,
  requestListQuery,
  TODO_TAB_LABEL,
  tabLabel,
} from '@/features/conversation'
import { PushPrompt } from '@/features/notifications'
import { INTRO_SURVEY_ID, useRequestDrawer } from '@/features/request-drawer'
import { waitsForConnection } from '@/lib/queryClient'
import { useNow } from '@/lib/useNow'
import { listedOnce } from '../buckets'
import { RequestCard } from '../components/RequestCard'
import { RequestListSkeleton, RequestsHeader } from '../components/RequestsLoading'
import { REQUEST_BUCKETS } from '../loader'
import { useFocusKept } from '../useFocusKept'

/**
 * Stable tab ids: the spec's rule (§4 Tabs: non-word characters become '_') applied to the labels
 * without their changing counts ('To_do', 'Completed'). An id carrying the count ('To_do__3_')
 * would change whenever a request moves, dropping the chosen tab and its ?tab= address.
 */
export const TODO_TAB_ID = tabIdFromLabel(TODO_TAB_LABEL)
export const COMPLETED_TAB_ID = tabIdFromLabel(COMPLETED_TAB_LABEL)

/**
 * Requests (spec §2): 'To do (n)' with in-progress requests first and then the queue, and
 * 'Completed (n)' when completed requests exist. The chosen tab is kept in the address (?tab=)
 * so coming back from a request returns to it.
 */
export default function Requests() {
  const results = useQueries({ queries: REQUEST_BUCKETS.map((bucket) => requestListQuery(bucket)) })
  const [inProgress, open, completed] = listedOnce(results)
  const isPending = results.some((r) => r.isPending)
  const offline = results.some(waitsForConnection)
  // A background refetch that fails keeps the list it had; only a list never loaded fails here.
  const failed = results.find((r) => r.isLoadingError)

  return (
    <div className="flex flex-col gap-6 sm:gap-8">
      <RequestsHeader />
      {isPending || failed ? null : (
        <PushPrompt requestCount={results.reduce((n, r) => n + (r.data?.length ?? 0), 0)} />
      )}
      {failed ? (
        <LoadFailed
          title="We couldn’t load your requests"
          onRetry={() => {
            for (const r of results) if (r.isError) void r.refetch()
          }}
        />
      ) : offline ? (
        <WaitingForConnection message="Your requests will load when you’re back online." />
      ) : isPending ? (
        <RequestListSkeleton />
      ) : (
        <RequestTabs inProgress={inProgress} open={open} completed={completed} />
      )}
    </div>
  )
}

function RequestTabs({
  inProgress,
  open,
  completed,
}: {
  inProgress: RequestListItem[]
  open: RequestListItem[]
  completed: RequestListItem[]
}) {
  const [params, setParams] = useSearchParams()
  const now = useNow()
  const root = useRef<HTMLDivElement>(null)
  useFocusKept(root)
  const todoCount = inProgress.length + open.length
  const hasCompleted = completed.length > 0
  const asksCompleted = params.get('tab') === COMPLETED_TAB_ID
  const selected = asksCompleted && hasCompleted ? COMPLETED_TAB_ID : TODO_TAB_ID

  const onSelectionChange = (id: string) => {
    setParams((prev) => withTab(prev, id), { replace: true })
  }

  // An address naming a Completed tab that is not there (its last request reopened) would
  // otherwise switch the view to it as soon as a request is completed again.
  useEffect(() => {
    if (asksCompleted && !hasCompleted)
      setParams((prev) => withTab(prev, TODO_TAB_ID), { replace: true })
  }, [asksCompleted, hasCompleted, setParams])

  return (
    <div ref={root}>
      <Tabs aria-label="Requests" selectedKey={selected} onSelectionChange={onSelectionChange}>
        <TabPanel id={TODO_TAB_ID} label={tabLabel(TODO_TAB_LABEL, todoCount)}>
          {todoCount === 0 ? (
            <NoOpenRequests />
          ) : (
            <div className="flex flex-col gap-8">
              {inProgress.length > 0 ? (
                <RequestSection
                  id="requests-in-progress"
                  title={inProgressHeading(inProgress.length)}
                  requests={inProgress}
                  now={now}
                />
              ) : null}
              {open.length > 0 ? (
                <RequestSection
                  id="requests-in-queue"
                  title={inQueueHeading(open.length)}
                  requests={open}
                  now={now}
                />
              ) : null}
            </div>
          )}
        </TabPanel>
        {hasCompleted ? (
          <TabPanel id={COMPLETED_TAB_ID} label={tabLabel(COMPLETED_TAB_LABEL, completed.length)}>
            <RequestList requests={completed} now={now} label="Completed requests" />
          </TabPanel>
        ) : null}
      </Tabs>
    </div>
  )
}

/** The address's query with `tab` naming the tab, or without it for the first tab. */
function withTab(query: URLSearchParams, id: string): URLSearchParams {
  const next = new URLSearchParams(query)
  if (id === TODO_TAB_ID) next.delete('tab')
  else next.set('tab', id)
  return next
}

function RequestSection({
  id,
  title,
  requests,
  now,
}: {
  id: string
  title: string
  requests: RequestListItem[]
  now: number
}) {
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3">
      <h2 id={id} className="text-sm font-semibold tracking-wide text-ink-muted uppercase">
        {title}
      </h2>
      <RequestList requests={requests} now={now} />
    </section>
  )
}

function RequestList({
  requests,
  now,
  label,
}: {
  requests: RequestListItem[]
  now: number
  label?: string
}) {
  return (
    <ul aria-label={label} className="flex flex-col gap-3">
      {requests.map((request) => (
        <li key={request.id}>
          <RequestCard request={request} now={now} />
        </li>
      ))}
    </ul>
  )
}

function NoOpenRequests() {
  const drawer = useRequestDrawer()
  return (
    <section className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center sm:py-16">
      <Assistant size="lg" title={ASSISTANT_NAME} waving />
      <Heading level={2}>No open requests</Heading>
      <Paragraph tone="muted" className="max-w-md">
        Hand us your next to-do and a concierge will take it from there.
      </Paragraph>
      <Button
        icon={<Plus />}
        onClick={() =>
          drawer.open({ surveyId: INTRO_SURVEY_ID, surveyName: 'Tell us what you need' })
        }
      >
        Create a request
      </Button>
    </section>
  )
}
