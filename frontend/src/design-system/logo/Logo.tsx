import { type HTMLAttributes, useId } from 'react'
import { cx } from '../utils'

export type LogoVariant = 'logotype' | 'logo'
export type LogoSize = 'sm' | 'md' | 'lg'

export interface LogoProps extends Omit<HTMLAttributes<HTMLSpanElement>, 'children'> {
  /** 'logotype' (default): mark + product name as text. 'logo': the mark alone, named by `productName`. */
  variant?: LogoVariant
  /** The product name (from configuration, default 'Concierge'). */
  productName?: string
  size?: LogoSize
  /** Light text for dark backgrounds. */
  inverted?: boolean
}

const markSizes: Record<LogoSize, string> = { sm: 'size-7', md: 'size-9', lg: 'size-12' }
const textSizes: Record<LogoSize, string> = { sm: 'text-base', md: 'text-xl', lg: 'text-2xl' }

/** The product mark: a concierge bell on a rounded teal tile. Original artwork. */
export function LogoMark({ className, title }: { className?: string; title?: string }) {
  const titleId = useId()
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: a <title> is rendered when `title` is given; otherwise aria-hidden
    <svg
      viewBox="0 0 40 40"
      className={className}
      focusable="false"
      {...(title ? { role: 'img', 'aria-labelledby': titleId } : { 'aria-hidden': true })}
    >
      {title ? <title id={titleId}>{title}</title> : null}
      <rect width="40" height="40" rx="11" fill="#1f766d" />
      <path d="M9 27.5a11 11 0 0 1 22 0Z" fill="#ffffff" />
      <path
        d="M13 24a7.5 7.5 0 0 1 5-6"
        stroke="#aee2d9"
        strokeWidth="2"
        strokeLinecap="round"
        fill="none"
      />
      <rect x="7" y="28.5" width="26" height="3.5" rx="1.75" fill="#ffffff" />
      <circle cx="20" cy="13.6" r="2.4" fill="#f05d38" />
    </svg>
  )
}

/** The product logo: mark alone ('logo') or mark with the product name ('logotype'). */
export function Logo({
  variant = 'logotype',
  productName = 'Concierge',
  size = 'md',
  inverted = false,
  className,
  ...rest
}: LogoProps) {
  if (variant === 'logo') {
    return (
      <span {...rest} className={cx('inline-flex', className)}>
        <LogoMark className={markSizes[size]} title={productName} />
      </span>
    )
  }
  return (
    <span {...rest} className={cx('inline-flex items-center gap-2', className)}>
      <LogoMark className={markSizes[size]} />
      <span
        className={cx(
          'font-display font-bold tracking-tight',
          textSizes[size],
          inverted ? 'text-white' : 'text-primary-800',
        )}
      >
        {productName}
      </span>
    </span>
  )
}
