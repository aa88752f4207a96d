import { ArrowRight, BadgeCheck } from 'lucide-react'
import { cx, focusRing } from '@/design-system'
import type { Offering } from '../api'
import { useLogoRetry } from '../logoRetry'
import { ProviderLogo } from './ProviderLogo'

/**
 * 'BlueHarbor Health, Medical plan, PPO and HMO options, View details (benefit)' (spec §2
 * 'Offering card'): the name also says the card's visible 'View details' (WCAG 2.5.3 Label in Name).
 */
export function offeringCardLabel(
  offering: Pick<Offering, 'provider_name' | 'heading' | 'subheading' | 'type'>,
): string {
  const parts = [offering.provider_name, offering.heading, offering.subheading]
    .map((part) => part?.trim())
    .filter(Boolean)
  return `${parts.join(', ')}, View details (${offering.type === 'benefit' ? 'benefit' : 'offer'})`
}

export interface OfferingCardProps {
  offering: Offering
  /** Opens the details drawer. */
  onOpen: (offering: Offering) => void
  /** Show the benefit icon on benefit cards (the all page). */
  showBenefitIcon?: boolean
}

/** An offering card: provider logo, heading, subheading. The whole card opens the details drawer. */
export function OfferingCard({ offering, onOpen, showBenefitIcon = false }: OfferingCardProps) {
  const { attempt, onLogoError } = useLogoRetry()
  const isBenefit = offering.type === 'benefit'
  return (
    <button
      type="button"
      aria-label={offeringCardLabel(offering)}
      aria-haspopup="dialog"
      data-offering-id={offering.id}
      onClick={() => onOpen(offering)}
      className={cx(
        'group flex h-full w-full cursor-pointer flex-col gap-4 rounded-2xl border border-line bg-surface p-5 text-start shadow-xs',
        'transition-[border-color,box-shadow] duration-200 hover:border-primary-400 hover:shadow-md motion-reduce:transition-none',
        focusRing,
      )}
    >
      <span className="flex w-full items-start justify-between gap-3">
        <ProviderLogo
          providerName={offering.provider_name}
          url={offering.provider_logo_url}
          attempt={attempt}
          onError={onLogoError}
        />
        {showBenefitIcon && isBenefit ? (
          <span
            data-benefit-icon=""
            aria-hidden="true"
            title="Your benefit"
            className="inline-flex size-9 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700"
          >
            <BadgeCheck className="size-5" />
          </span>
        ) : null}
      </span>
      {/* Admins write these: a long word wraps inside the card rather than widen the page. */}
      <span className="flex min-w-0 flex-col gap-1 wrap-anywhere">
        <span className="text-lg leading-snug font-semibold text-ink">{offering.heading}</span>{' '}
        {offering.subheading ? (
          <span className="text-sm text-ink-muted">{offering.subheading}</span>
        ) : null}
      </span>{' '}
      <span
        aria-hidden="true"
        className="mt-auto inline-flex items-center gap-1 text-sm font-semibold text-primary-700"
      >
        View details
        <ArrowRight className="size-4 transition-transform duration-200 group-hover:translate-x-0.5 motion-reduce:transition-none" />
      </span>
    </button>
  )
}
