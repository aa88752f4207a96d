import type { HTMLAttributes } from 'react'
import { cx } from '../utils'

export type SpinnerSize = 'sm' | 'md' | 'lg'

export interface SpinnerProps extends Omit<HTMLAttributes<HTMLSpanElement>, 'role' | 'children'> {
  /** Accessible label. Default 'Loading'. */
  label?: string
  size?: SpinnerSize
  /**
   * true (default): a live `role="status"` so a screen reader announces it.
   * false: a plain labelled image, for use inside another control (e.g. a busy button).
   */
  announce?: boolean
}

const sizes: Record<SpinnerSize, string> = {
  sm: 'size-4',
  md: 'size-6',
  lg: 'size-10',
}

/** A spinning loading indicator. */
export function Spinner({
  label = 'Loading',
  size = 'md',
  announce = true,
  className,
  ...rest
}: SpinnerProps) {
  const classes = cx('inline-flex shrink-0 items-center justify-center', className)
  const graphic = (
    <svg
      aria-hidden="true"
      focusable="false"
      viewBox="0 0 24 24"
      fill="none"
      className={cx(sizes[size], 'animate-spin motion-reduce:animate-[spin_1.6s_linear_infinite]')}
    >
      <circle cx="12" cy="12" r="9.5" stroke="currentColor" strokeOpacity="0.2" strokeWidth="3" />
      <path
        d="M21.5 12a9.5 9.5 0 0 0-9.5-9.5"
        stroke="currentColor"
        strokeWidth="3"
        strokeLinecap="round"
      />
    </svg>
  )
  if (!announce) {
    return (
      <span role="img" aria-label={label} className={classes} {...rest}>
        {graphic}
      </span>
    )
  }
  return (
    <span role="status" aria-label={label} className={classes} {...rest}>
      {graphic}
    </span>
  )
}
