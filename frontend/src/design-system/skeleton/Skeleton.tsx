import type { CSSProperties, ReactNode } from 'react'
import { cx } from '../utils'

export interface SkeletonProps {
  /** 'rect' (default) a block, 'text' one or more text lines, 'circle' an avatar. */
  shape?: 'rect' | 'text' | 'circle'
  /** Number of lines for shape 'text'. Default 1; the last of several is shorter. */
  lines?: number
  /** Size via Tailwind classes (e.g. 'h-24 w-full') or inline width/height. */
  className?: string
  width?: CSSProperties['width']
  height?: CSSProperties['height']
}

const pulse = 'animate-pulse motion-reduce:animate-none bg-neutral-200'

/** A grey placeholder shown while content loads. Decorative: pair it with a `SkeletonGroup` or an aria-busy container. */
export function Skeleton({ shape = 'rect', lines = 1, className, width, height }: SkeletonProps) {
  if (shape === 'text') {
    return (
      <span
        aria-hidden="true"
        data-skeleton=""
        className={cx('flex flex-col gap-2', className)}
        style={{ width }}
      >
        {Array.from({ length: lines }, (_, i) => (
          <span
            // biome-ignore lint/suspicious/noArrayIndexKey: static placeholder lines
            key={i}
            className={cx(
              pulse,
              'block h-3.5 rounded-full',
              lines > 1 && i === lines - 1 ? 'w-3/5' : 'w-full',
            )}
          />
        ))}
      </span>
    )
  }
  return (
    <span
      aria-hidden="true"
      data-skeleton=""
      className={cx(pulse, 'block', shape === 'circle' ? 'rounded-full' : 'rounded-xl', className)}
      style={{ width, height }}
    />
  )
}

export interface SkeletonGroupProps {
  /** Screen-reader text. Default 'Loading'. */
  label?: string
  children: ReactNode
  className?: string
}

/** Wraps skeletons: marks the area busy and tells screen readers it is loading. */
export function SkeletonGroup({ label = 'Loading', children, className }: SkeletonGroupProps) {
  return (
    <div role="status" aria-busy="true" aria-label={label} className={className}>
      {children}
    </div>
  )
}
