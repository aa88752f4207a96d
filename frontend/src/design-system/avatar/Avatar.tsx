import { cx } from '../utils'

/**
 * The user's initials in a round avatar (decorative: the link around it carries the name). The
 * initials are drawn by CSS, not DOM text, so a link named 'Account' has no visible text its name
 * leaves out (WCAG 2.5.3 Label in Name).
 */
export function Avatar({ initials, size = 'md' }: { initials: string; size?: 'sm' | 'md' | 'lg' }) {
  return (
    <span
      aria-hidden="true"
      data-initials={initials || '?'}
      className={cx(
        'before:content-[attr(data-initials)]',
        'inline-flex shrink-0 items-center justify-center rounded-full bg-accent-100 font-semibold text-accent-800',
        'ring-2 ring-white transition-colors group-aria-[current=page]:bg-primary-600 group-aria-[current=page]:text-white',
        { sm: 'size-7 text-xs', md: 'size-9 text-sm', lg: 'size-14 text-lg' }[size],
      )}
    ></span>
  )
}
