import { cx } from '@/design-system'
import { UNREAD_MARK_TEXT } from '../wording'

/**
 * 'New reply' on a request card whose concierge's reply the employee has not opened yet: words in
 * a solid pill (the navigation's count has the same colour), so the mark never rests on colour
 * alone and never reads as a status.
 */
export function UnreadMark({ className }: { className?: string }) {
  return (
    <span
      data-unread-mark
      className={cx(
        'inline-flex items-center gap-1.5 rounded-full bg-accent-700 px-2.5 py-0.5 text-xs font-bold whitespace-nowrap text-white',
        className,
      )}
    >
      <span aria-hidden="true" className="size-1.5 rounded-full bg-white" />
      {UNREAD_MARK_TEXT}
    </span>
  )
}
