import { cx } from '@/design-system'
import type { MemberStatus } from '../api'

export const STATUS_LABELS: Record<MemberStatus, string> = {
  active: 'Active',
  deactivated: 'Deactivated',
  not_joined: 'Not joined yet',
  closed: 'Account closed',
}

const STATUS_STYLES: Record<MemberStatus, string> = {
  active: 'bg-success-50 text-success-800 ring-success-600/30',
  deactivated: 'bg-neutral-100 text-neutral-800 ring-neutral-500/30',
  not_joined: 'bg-info-50 text-info-800 ring-info-600/30',
  closed: 'bg-neutral-50 text-ink-muted ring-neutral-300',
}

/** A person's status on the members page, in words (the colour only repeats them). */
export function MemberStatusBadge({ status }: { status: MemberStatus }) {
  return (
    <span
      className={cx(
        'inline-flex items-center rounded-full px-2.5 py-0.5 text-xs font-semibold whitespace-nowrap ring-1 ring-inset',
        STATUS_STYLES[status],
      )}
    >
      {STATUS_LABELS[status]}
    </span>
  )
}
