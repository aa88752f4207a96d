import { type ReactNode, useEffect, useRef, useState } from 'react'
import { Skeleton, SkeletonGroup } from '@/design-system'
import type { Offering } from '../api'
import { OfferingCard } from './OfferingCard'

/** Spec §9: 1 column on small screens, 2 at sm, 3 at 2xl. */
export const GRID_CLASSES = 'grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-3'

export interface OfferingGridProps {
  offerings: Offering[]
  onOpen: (offering: Offering) => void
  showBenefitIcon?: boolean
  /** Accessible name of the list. */
  label: string
}

/**
 * The grid of offering cards. Cards that join the list after it first showed fade and scale in
 * (spec §9: list animation 0.4 s, `animate-list-item-in`; reduced motion turns it off).
 */
export function OfferingGrid({ offerings, onOpen, showBenefitIcon, label }: OfferingGridProps) {
  const shown = useRef(false)
  useEffect(() => {
    shown.current = true
  }, [])
  return (
    <ul aria-label={label} className={GRID_CLASSES}>
      {offerings.map((offering) => (
        <GridItem key={offering.id} animate={shown.current}>
          <OfferingCard offering={offering} onOpen={onOpen} showBenefitIcon={showBenefitIcon} />
        </GridItem>
      ))}
    </ul>
  )
}

/** A card's place; whether it animates in is fixed when it mounts. */
function GridItem({ animate, children }: { animate: boolean; children: ReactNode }) {
  const [animateIn] = useState(animate)
  return <li className={animateIn ? 'min-w-0 animate-list-item-in' : 'min-w-0'}>{children}</li>
}

/** Placeholder cards while offerings load. */
export function OfferingGridSkeleton({
  count = 3,
  label = 'Loading offerings',
}: {
  count?: number
  label?: string
}) {
  return (
    <SkeletonGroup label={label} className={GRID_CLASSES}>
      {Array.from({ length: count }, (_, i) => (
        <div
          // biome-ignore lint/suspicious/noArrayIndexKey: static placeholders
          key={i}
          className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5"
        >
          <Skeleton className="h-12 w-32" />
          <Skeleton shape="text" lines={2} />
          <Skeleton className="h-4 w-24" />
        </div>
      ))}
    </SkeletonGroup>
  )
}
