import { useQuery } from '@tanstack/react-query'
import { FileQuestion } from 'lucide-react'
import { useParams } from 'react-router'
import { Button, Heading, LoadFailed, Paragraph, Skeleton, SkeletonGroup } from '@/design-system'
import { parseRequestId } from '@/features/conversation'
import { useCurrentUser } from '@/lib/currentUser'
import { useScreenTitle } from '@/lib/titleCount'
import { useNow } from '@/lib/useNow'
import { DeskApiError, type DeskRequest as DeskRequestData, deskRequestQuery } from '../api'
import { DeskThread } from '../components/DeskThread'
import { EmployeePanel } from '../components/EmployeePanel'
import { NotesPanel } from '../components/NotesPanel'
import { RatingPanel } from '../components/RatingPanel'
import { ReplyComposer } from '../components/ReplyComposer'
import { RequestHeader } from '../components/RequestHeader'
import { SurveyPanel } from '../components/SurveyPanel'
import { lastQueuePath } from '../lib/filters'
import { usePresence } from '../lib/usePresence'

/**
 * One request at the desk (/concierge/requests/:requestId): the header with claim, assign and
 * status actions and who else is here; the thread and the reply composer; internal notes, the
 * survey answers and the employee's profile beside them (below them on small screens).
 */
export default function DeskRequest() {
  const id = parseRequestId(useParams().requestId)
  if (id === null) return <RequestMissing />
  return <LoadRequest key={id} id={id} />
}

function LoadRequest({ id }: { id: number }) {
  const query = useQuery(deskRequestQuery(id))
  if (query.data) return <RequestView request={query.data} updatedAt={query.dataUpdatedAt} />
  if (query.isError) {
    const { error } = query
    if (error instanceof DeskApiError && error.status === 404) return <RequestMissing />
    return (
      <LoadFailed
        title="We couldn’t load this request"
        message={error.message}
        headingLevel={1}
        onRetry={() => query.refetch()}
      />
    )
  }
  return (
    <SkeletonGroup label="Loading request" className="flex flex-col gap-6">
      <Skeleton shape="text" lines={2} className="max-w-md" />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_24rem]">
        <Skeleton height="20rem" className="rounded-2xl" />
        <Skeleton height="20rem" className="rounded-2xl" />
      </div>
    </SkeletonGroup>
  )
}

function RequestView({ request, updatedAt }: { request: DeskRequestData; updatedAt: number }) {
  const user = useCurrentUser()
  const now = useNow()
  const viewers = usePresence(request.id, { viewers: request.viewers, updatedAt })
  useScreenTitle(deskRequestTitle(request))

  return (
    <div className="flex flex-col gap-6">
      <RequestHeader request={request} user={user} viewers={viewers} now={now} />
      <div className="grid items-start gap-6 lg:grid-cols-[minmax(0,1fr)_22rem] xl:grid-cols-[minmax(0,1fr)_26rem]">
        <section aria-labelledby="desk-thread-heading" className="flex min-w-0 flex-col gap-4">
          <h2 id="desk-thread-heading" className="sr-only">
            Conversation
          </h2>
          <DeskThread request={request} now={now} />
          <ReplyComposer
            requestId={request.id}
            firstName={request.employee.first_name || request.employee.full_name}
          />
        </section>
        <aside aria-label="About this request" className="flex min-w-0 flex-col gap-4">
          <RatingPanel rating={request.rating} />
          <NotesPanel requestId={request.id} notes={request.notes} now={now} />
          <SurveyPanel survey={request.survey} />
          <EmployeePanel employee={request.employee} />
        </aside>
      </div>
    </div>
  )
}

/** The browser tab of a request at the desk: '#2 Get a handyman · Nora'. */
export function deskRequestTitle(request: DeskRequestData): string {
  const who = request.employee.first_name || request.employee.full_name
  return who ? `#${request.id} ${request.name} · ${who}` : `#${request.id} ${request.name}`
}

function RequestMissing() {
  return (
    <div className="flex flex-col items-center gap-3 py-16 text-center">
      <FileQuestion aria-hidden="true" className="size-10 text-primary-600" />
      <Heading level={1} size="default">
        Request not found
      </Heading>
      <Paragraph tone="muted">It may have been removed, or the address is wrong.</Paragraph>
      <Button variant="secondary" to={lastQueuePath()}>
        Back to the queue
      </Button>
    </div>
  )
}
