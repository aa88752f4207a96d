import { MessageCircleReply } from 'lucide-react'
import { cx } from '@/design-system'

/** The employee wrote last (or nobody has yet): the request waits on the concierge. */
export function NeedsReplyBadge({ className }: { className?: string }) {
  return (
    <span
      className={cx(
        'inline-flex items-center gap-1 rounded-full bg-accent-50 px-2 py-0.5 text-xs font-semibold whitespace-nowrap text-accent-800 ring-1 ring-accent-200 ring-inset',
        className,
      )}
    >
      <MessageCircleReply aria-hidden="true" className="size-3.5" />
      Needs reply
    </span>
  )
}

/** Who the request is assigned to, or 'Unassigned'. */
export function AssigneeName({ name }: { name: string | null | undefined }) {
  return name ? (
    <span className="text-ink">{name}</span>
  ) : (
    <span className="text-ink-muted italic">Unassigned</span>
  )
}
