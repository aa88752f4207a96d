import { useQuery } from '@tanstack/react-query'
import { useEffect } from 'react'
import { cx } from '@/design-system'
import { unreadCountQuery, unreadSuffix } from '@/features/conversation'
import { setTitleCount } from '@/lib/titleCount'

/** How many of the employee's requests have a concierge's reply they have not opened. */
export function useUnreadRequestCount(): number {
  return useQuery(unreadCountQuery).data ?? 0
}

/** The unread count before the page title while the signed-in shell shows. */
export function UnreadTitle() {
  const count = useUnreadRequestCount()
  useEffect(() => setTitleCount(count), [count])
  useEffect(() => () => setTitleCount(0), [])
  return null
}

/**
 * A navigation item's count as a number in a pill, for the eye; assistive technology hears it
 * in words from `NavLabel` instead.
 */
export function NavCount({ count, className }: { count: number; className?: string }) {
  if (count <= 0) return null
  return (
    <span
      aria-hidden="true"
      data-nav-count={count}
      className={cx(
        'inline-flex h-5 min-w-5 items-center justify-center rounded-full bg-accent-700 px-1.5 text-[0.6875rem] leading-none font-bold text-white tabular-nums',
        className,
      )}
    >
      {count > 99 ? '99+' : count}
    </span>
  )
}

/**
 * A navigation item's label; with unread requests its accessible name goes on to say how many,
 * 'Requests, 2 unread', as one text (the visible label is its start, WCAG 2.5.3).
 */
export function NavLabel({ label, count }: { label: string; count: number }) {
  if (count <= 0) return label
  return (
    <>
      <span aria-hidden="true">{label}</span>
      <span className="sr-only">{`${label}${unreadSuffix(count)}`}</span>
    </>
  )
}
