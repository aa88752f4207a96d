import { EyeOff } from 'lucide-react'
import { cx } from '@/design-system'

export const PRIVACY_NOTE =
  'To protect everyone’s privacy, figures about fewer than 5 people, requests or ratings are hidden.'

/**
 * In place of a figure the server withheld (it is never sent): what is shown, e.g. 'Fewer
 * than 5 ratings', and what a screen reader hears, which says why.
 */
export function Withheld({
  children = 'Fewer than 5',
  label,
  size = 'md',
}: {
  children?: string
  /** The full wording, e.g. 'Fewer than 5 ratings, hidden to protect privacy'. */
  label: string
  /** 'sm' in a table cell. */
  size?: 'sm' | 'md'
}) {
  return (
    <span
      className={cx(
        'inline-flex gap-1.5 text-ink-muted',
        size === 'sm'
          ? 'items-center text-sm font-medium whitespace-nowrap'
          : 'items-start text-base leading-snug font-semibold',
      )}
      title={label}
      data-withheld=""
    >
      <EyeOff
        aria-hidden="true"
        className={size === 'sm' ? 'size-3.5 shrink-0' : 'mt-0.5 size-4 shrink-0'}
      />
      <span aria-hidden="true">{children}</span>
      <span className="sr-only">{label}</span>
    </span>
  )
}

/** The wording of each kind of withheld figure. */
export const WITHHELD = {
  requests: { children: 'Fewer than 5', label: 'Fewer than 5 requests, hidden to protect privacy' },
  completed: {
    children: 'Fewer than 5',
    label: 'Fewer than 5 completed requests, hidden to protect privacy',
  },
  median: {
    children: 'Fewer than 5 requests',
    label: 'Based on fewer than 5 requests, hidden to protect privacy',
  },
  rating: {
    children: 'Fewer than 5 ratings',
    label: 'Fewer than 5 ratings, hidden to protect privacy',
  },
  usage: {
    children: 'Hidden',
    label:
      'Hidden to protect privacy: fewer than 5 employees used the service, or fewer than 5 didn’t',
  },
} as const
