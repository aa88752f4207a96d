import type { HTMLAttributes, Ref } from 'react'
import { cx } from '../utils'

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6
export type HeadingSize = 'default' | 'lg' | 'xl'

export interface HeadingProps extends HTMLAttributes<HTMLHeadingElement> {
  /** Renders <h1>…<h6>. Required: pick the level from the document outline. */
  level: HeadingLevel
  /** Visual size, independent of the level. 'default' follows the level. */
  size?: HeadingSize
  ref?: Ref<HTMLHeadingElement>
}

const defaultSizes: Record<HeadingLevel, string> = {
  1: 'text-2xl sm:text-3xl font-bold',
  2: 'text-xl sm:text-2xl font-bold',
  3: 'text-lg sm:text-xl font-semibold',
  4: 'text-base sm:text-lg font-semibold',
  5: 'text-base font-semibold',
  6: 'text-sm font-semibold',
}

const namedSizes: Record<Exclude<HeadingSize, 'default'>, string> = {
  lg: 'text-2xl sm:text-3xl font-bold',
  xl: 'text-3xl sm:text-4xl 2xl:text-5xl font-bold',
}

/** Headings h1–h6 with the product's type scale. */
export function Heading({ level, size = 'default', className, children, ...rest }: HeadingProps) {
  const Tag = `h${level}` as const
  return (
    <Tag
      {...rest}
      className={cx(
        'font-display text-ink tracking-tight text-balance wrap-anywhere',
        size === 'default' ? defaultSizes[level] : namedSizes[size],
        className,
      )}
    >
      {children}
    </Tag>
  )
}
