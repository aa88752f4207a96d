/** The queue's filters in the address (`/concierge?status=in_progress&assignee=mine&q=…`). */
import type { RequestStatus } from '@/api/enums'
import { isRequestStatus, statusLabel } from '@/lib/format'
import type { AssigneeFilter, DueFilter, QueueFilters, QueueOrder } from '../api'

const TAB_ORDER: RequestStatus[] = ['open', 'in_progress', 'closed']

export const QUEUE_TABS = TAB_ORDER.map((status) => ({ status, label: statusLabel(status) }))
const ASSIGNEES = new Set<string>(['mine', 'unassigned'])
const ORDERS = new Set<string>(['oldest', 'newest'])
const DUES = new Set<string>(['overdue', 'soon'])

export function filtersFromParams(params: URLSearchParams): QueueFilters {
  const status = params.get('status') ?? ''
  const assignee = params.get('assignee') ?? ''
  const company = Number(params.get('company'))
  return {
    status: isRequestStatus(status) ? status : 'open',
    company: Number.isSafeInteger(company) && company > 0 ? company : null,
    assignee: (ASSIGNEES.has(assignee) ? assignee : '') as AssigneeFilter,
    q: (params.get('q') ?? '').slice(0, 200),
    order: (ORDERS.has(params.get('order') ?? '') ? params.get('order') : 'due') as QueueOrder,
    due: (DUES.has(params.get('due') ?? '') ? params.get('due') : '') as DueFilter,
  }
}

/** Only what differs from the defaults, so the plain queue stays at a plain `/concierge`. */
export function paramsFromFilters(filters: QueueFilters): URLSearchParams {
  const params = new URLSearchParams()
  if (filters.status !== 'open') params.set('status', filters.status)
  if (filters.company !== null) params.set('company', String(filters.company))
  if (filters.assignee) params.set('assignee', filters.assignee)
  if (filters.q.trim()) params.set('q', filters.q.trim())
  if (filters.order !== 'due') params.set('order', filters.order)
  if (filters.due) params.set('due', filters.due)
  return params
}

/** Where 'Back to the queue' goes: the queue as the concierge last left it. */
let lastQueueSearch = ''

export function rememberQueueSearch(search: string) {
  lastQueueSearch = search
}

export function lastQueuePath(): string {
  return `/concierge${lastQueueSearch}`
}
