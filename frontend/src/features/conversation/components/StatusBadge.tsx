import { CircleCheck, Clock, Loader } from 'lucide-react'
import type { RequestStatus } from '@/api/enums'
import { cx } from '@/design-system'
import { isRequestStatus, statusLabel } from '@/lib/format'

const styles: Record<RequestStatus, { className: string; Icon: typeof Clock }> = {
  open: { className: 'bg-info-50 text-info-800 ring-info-200', Icon: Clock },
  in_progress: { className: 'bg-warning-50 text-warning-800 ring-warning-200', Icon: Loader },
  closed: { className: 'bg-success-50 text-success-800 ring-success-200', Icon: CircleCheck },
}

const unknown = { className: 'bg-neutral-100 text-neutral-700 ring-neutral-200', Icon: Clock }

/**
 * The request status label of spec §4 ('In Queue', 'In Progress', 'Completed'); a value the
 * API does not declare still renders, as 'Unknown'.
 */
export function StatusBadge({ status, className }: { status: RequestStatus; className?: string }) {
  const { className: tone, Icon } = isRequestStatus(status) ? styles[status] : unknown
  return (
    <span
      data-status={status}
      className={cx(
        'inline-flex items-center gap-1 rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        tone,
        className,
      )}
    >
      <Icon aria-hidden="true" className="size-3.5" />
      {statusLabel(status)}
    </span>
  )
}
