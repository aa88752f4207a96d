import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, CircleCheck, Hand, Play, RotateCcw, Users } from 'lucide-react'
import { useEffect, useRef } from 'react'
import type { CurrentUser } from '@/api/client'
import type { RequestStatus } from '@/api/enums'
import { Button, CategoryIcon, Heading, Link, useToast } from '@/design-system'
import { StatusBadge } from '@/features/conversation'
import { isRequestStatus, relativeTime, statusLabel } from '@/lib/format'
import {
  assignRequest,
  changeStatus,
  claimRequest,
  conciergesQuery,
  type DeskRequest,
  type Person,
  type StatusAction,
} from '../api'
import { lastQueuePath } from '../lib/filters'
import { useDeskAction } from '../lib/useDeskAction'
import { AssignMenu } from './AssignMenu'
import { AssigneeName, NeedsReplyBadge, SlaBadge } from './Badges'

/** The concierge's own user id, by their email in the concierges list (null until known). */
export function useMyConciergeId(user: CurrentUser): number | null {
  const concierges = useQuery(conciergesQuery)
  const email = user.email.toLowerCase()
  return concierges.data?.find((c) => c.email.toLowerCase() === email)?.id ?? null
}

function isMine(assignee: Person | null, myId: number | null, user: CurrentUser): boolean {
  if (!assignee) return false
  return myId !== null ? assignee.id === myId : assignee.full_name === user.full_name
}

/** The status changes offered as buttons (undoing a completion is the toast's Undo). */
type ButtonAction = Exclude<StatusAction, 'undo_complete'>

const ALLOWED_ACTIONS: Record<RequestStatus, ButtonAction[]> = {
  open: ['start', 'complete'],
  in_progress: ['complete'],
  closed: ['reopen'],
}

/** The status changes a request's status allows (none for a status the API does not declare). */
export function allowedActions(status: RequestStatus): ButtonAction[] {
  return isRequestStatus(status) ? ALLOWED_ACTIONS[status] : []
}

const ACTIONS: Record<ButtonAction, { label: string; icon: typeof Play }> = {
  start: { label: 'Start', icon: Play },
  complete: { label: 'Complete', icon: CircleCheck },
  reopen: { label: 'Reopen', icon: RotateCcw },
}

/** How long the desk offers Undo after Complete (the server accepts it a little longer). */
export const UNDO_COMPLETE_MS = 6_000

export function RequestHeader({
  request,
  user,
  viewers,
  now,
}: {
  request: DeskRequest
  user: CurrentUser
  viewers: Person[]
  now: number
}) {
  const myId = useMyConciergeId(user)
  const mine = isMine(request.assignee, myId, user)
  const claim = useDeskAction<void>(request.id, () => claimRequest(request.id))
  const assign = useDeskAction<number | null>(request.id, (id) => assignRequest(request.id, id))
  const status = useDeskAction<StatusAction>(request.id, (action) =>
    changeStatus(request.id, action),
  )
  const actions = useRef<HTMLDivElement>(null)
  const refocus = useRef(false)
  // Undo pressed with focus on it: focus goes to the status action once the request shows
  // undone (Complete again), or at once when the undo was refused.
  const focusAfterUndo = useRef<'no' | 'pressed' | 'undone'>('no')
  const { toast } = useToast()
  const undo = useDeskAction<void>(request.id, () => changeStatus(request.id, 'undo_complete'), {
    onSuccess: (undone) => {
      if (focusAfterUndo.current === 'pressed') focusAfterUndo.current = 'undone'
      toast({
        message: `Completion undone: the request is ${statusLabel(undone.status)} again.`,
        severity: 'success',
        autoDismiss: true,
      })
    },
    onSettled: () => {
      if (focusAfterUndo.current !== 'pressed') return
      focusAfterUndo.current = 'no'
      refocus.current = true
    },
  })
  const busy = claim.isPending || assign.isPending || status.isPending || undo.isPending
  // Where focus goes after an action whose button is gone: the first action for Claim (Assign
  // takes its place), else the last (the status action that follows a change of status).
  const refocusFirst = useRef(false)
  const focusLastAction = () => {
    const buttons = actions.current?.querySelectorAll<HTMLButtonElement>('button:not(:disabled)')
    const first = refocusFirst.current
    refocusFirst.current = false
    buttons?.[first ? 0 : buttons.length - 1]?.focus()
  }
  // The button pressed is disabled while busy and often gone afterwards (Claim, Complete → Reopen):
  // focus then moves to the next action rather than being lost to the page.
  useEffect(() => {
    if (focusAfterUndo.current === 'undone' && request.status !== 'closed') {
      focusAfterUndo.current = 'no'
      refocus.current = true
    }
    if (busy || !refocus.current) return
    refocus.current = false
    const active = document.activeElement
    if (active && active !== document.body && document.contains(active)) return
    focusLastAction()
  })
  const act = (run: () => void, focusFirst = false) => {
    refocus.current = true
    refocusFirst.current = focusFirst
    run()
  }
  // Complete: the button goes, and for a few seconds a toast offers Undo, with focus on it.
  // When the toast goes with focus in it, focus comes back to the status action here (after
  // an Undo, once the request is back: Complete again).
  const offerUndo = () => {
    refocus.current = false
    toast({
      id: `request-completed-${request.id}`,
      message: 'Request completed.',
      severity: 'success',
      autoDismiss: true,
      durationMs: UNDO_COMPLETE_MS,
      focusAction: true,
      action: { label: 'Undo', onAction: () => undo.mutate() },
      onDismiss: (reason) => {
        const hadFocus = !!document.activeElement?.closest('[data-toast]')
        if (!hadFocus || !actions.current?.isConnected) return
        if (reason === 'action') focusAfterUndo.current = 'pressed'
        else focusLastAction()
      },
    })
  }
  const changeTo = (action: ButtonAction) =>
    act(() => status.mutate(action, { onSuccess: action === 'complete' ? offerUndo : undefined }))

  return (
    <header className="flex flex-col gap-4">
      <Link
        to={lastQueuePath()}
        tone="muted"
        underline="hover"
        className="inline-flex items-center gap-1.5 self-start text-sm font-semibold"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        Back to the queue
      </Link>
      <div className="flex flex-col gap-4 xl:flex-row xl:items-start xl:justify-between">
        <div className="flex min-w-0 flex-col gap-2">
          <div className="flex flex-wrap items-center gap-2">
            <StatusBadge status={request.status} />
            <SlaBadge sla={request.sla} now={now} />
            {request.waiting_on === 'concierge' ? <NeedsReplyBadge /> : null}
            <span className="text-sm text-ink-muted tabular-nums">#{request.id}</span>
          </div>
          <Heading level={1} size="lg">
            {request.name}
          </Heading>
          <p className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm text-ink-muted">
            <span>
              <span className="font-semibold text-ink">{request.employee.full_name}</span>
              {request.company ? ` · ${request.company.name}` : null}
            </span>
            {request.survey_category_name ? (
              <span className="inline-flex items-center gap-1.5">
                <CategoryIcon name={request.survey_category_icon} className="size-4" />
                {request.survey_category_name}
              </span>
            ) : null}
            <span>
              Requested{' '}
              <time dateTime={request.issued_at}>
                {relativeTime(request.issued_at, now).toLowerCase()}
              </time>
            </span>
            {/* Read out when it changes (Claim, Assign, another concierge's change): WCAG 4.1.3. */}
            <span aria-live="polite" aria-atomic="true">
              Assignee: <AssigneeName name={request.assignee?.full_name} />
            </span>
          </p>
        </div>
        <div ref={actions} className="flex flex-wrap items-center gap-2">
          {!request.assignee ? (
            <Button
              size="sm"
              icon={<Hand />}
              loading={claim.isPending}
              disabled={busy}
              onClick={() => act(() => claim.mutate(), true)}
            >
              Claim
            </Button>
          ) : !mine && myId !== null ? (
            <Button
              size="sm"
              variant="secondary"
              icon={<Hand />}
              loading={assign.isPending}
              disabled={busy}
              onClick={() => act(() => assign.mutate(myId))}
            >
              Take over
            </Button>
          ) : null}
          <AssignMenu
            assignee={request.assignee}
            myId={myId}
            pending={assign.isPending}
            onAssign={(id) => assign.mutate(id)}
          />
          {allowedActions(request.status).map((action) => {
            const { label, icon: Icon } = ACTIONS[action]
            return (
              <Button
                key={action}
                size="sm"
                variant={action === 'complete' ? 'primary' : 'secondary'}
                icon={<Icon />}
                loading={status.isPending && status.variables === action}
                disabled={busy}
                onClick={() => changeTo(action)}
              >
                {label}
              </Button>
            )
          })}
        </div>
      </div>
      <div role="status" aria-label="Presence" className="empty:hidden">
        {viewers.length > 0 ? (
          <p className="inline-flex items-center gap-2 rounded-full bg-info-50 px-3 py-1.5 text-sm font-medium text-info-800 ring-1 ring-info-200 ring-inset">
            <Users aria-hidden="true" className="size-4" />
            Also viewing: {viewers.map((v) => v.full_name).join(', ')}
          </p>
        ) : null}
      </div>
    </header>
  )
}
