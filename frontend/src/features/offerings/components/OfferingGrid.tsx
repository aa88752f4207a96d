import { AnimatePresence, MotionConfig, motion } from 'motion/react'
import { Skeleton, SkeletonGroup } from '@/design-system'
import type { Offering } from '../api'
import { OfferingCard } from './OfferingCard'

/** Spec §9: list animation 0.4 s. */
export const LIST_ANIMATION_SECONDS = 0.4

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
 * The grid of offering cards. Cards fade and scale in and out and the rest slide to their new
 * places (0.4 s) when the list changes; with reduced motion only the fade remains (motion's
 * `reducedMotion="user"` turns off transform and layout animation).
 */
export function OfferingGrid({ offerings, onOpen, showBenefitIcon, label }: OfferingGridProps) {
  return (
    <MotionConfig
      reducedMotion="user"
      transition={{ duration: LIST_ANIMATION_SECONDS, ease: 'easeOut' }}
    >
      <ul aria-label={label} className={GRID_CLASSES}>
        <AnimatePresence mode="popLayout" initial={false}>
          {offerings.map((offering) => (
            <motion.li
              key={offering.id}
              layout
              initial={{ opacity: 0, scale: 0.96 }}
              animate={{ opacity: 1, scale: 1 }}
              exit={{ opacity: 0, scale: 0.96 }}
              className="min-w-0"
            >
              <OfferingCard offering={offering} onOpen={onOpen} showBenefitIcon={showBenefitIcon} />
            </motion.li>
          ))}
        </AnimatePresence>
      </ul>
    </MotionConfig>
  )
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
