import { useState } from 'react'
import { cx } from '@/design-system'

/** 'BlueHarbor Health' → 'BH'; one word → its first letter. */
export function providerInitials(name: string): string {
  // Words of letters or digits only: markup ('<b>Inc</b>') or an emoji gives no initial.
  const words = name.replace(/<[^>]*>/g, ' ').match(/[\p{L}\p{N}]+/gu) ?? []
  const first = words[0]?.[0]
  if (!first) return '?'
  const last = words.length > 1 ? (words.at(-1)?.[0] ?? '') : ''
  return (first + last).toUpperCase()
}

export interface ProviderLogoProps {
  providerName: string
  url: string | null
  /** Image alt text. Cards use '' (the card's label names the provider). */
  alt?: string
  size?: 'md' | 'lg'
  /**
   * Bumping it remounts the image so it loads again (used after offerings were refetched
   * because a logo failed).
   */
  attempt?: number
  /** Called when the image fails to load; the initials show until the next attempt. */
  onError?: () => void
  className?: string
}

const boxSizes = {
  md: 'h-12 w-32',
  lg: 'h-16 w-44',
}

const initialsSizes = {
  md: 'size-12 text-base',
  lg: 'size-16 text-xl',
}

/** The provider's logo, or their initials when there is no logo or it failed to load. */
export function ProviderLogo({
  providerName,
  url,
  alt = '',
  size = 'md',
  attempt = 0,
  onError,
  className,
}: ProviderLogoProps) {
  // The attempt on which the image failed; a new attempt shows (and loads) the image again.
  const [failedAttempt, setFailedAttempt] = useState<number | null>(null)
  const failed = failedAttempt === attempt

  if (!url || failed) {
    const classes = cx(
      'inline-flex shrink-0 items-center justify-center rounded-xl bg-primary-50 font-bold tracking-wide text-primary-700',
      initialsSizes[size],
      className,
    )
    const initials = providerInitials(providerName)
    return alt ? (
      <span data-logo-fallback="" role="img" aria-label={alt} className={classes}>
        {initials}
      </span>
    ) : (
      // Decorative: the initials are drawn by CSS, so they are not visible text the card's name
      // would have to include (WCAG 2.5.3 Label in Name).
      <span
        data-logo-fallback=""
        data-initials={initials}
        aria-hidden="true"
        className={cx(classes, 'before:content-[attr(data-initials)]')}
      />
    )
  }
  return (
    <span className={cx('flex shrink-0 items-center justify-start', boxSizes[size], className)}>
      <img
        key={attempt}
        src={url}
        alt={alt}
        decoding="async"
        className="max-h-full max-w-full object-contain object-left"
        onError={() => {
          setFailedAttempt(attempt)
          onError?.()
        }}
      />
    </span>
  )
}
