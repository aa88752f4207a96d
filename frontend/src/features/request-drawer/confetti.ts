/** The first-ever request celebration (spec §4; §9 'Confetti default 2000 ms, 150 pieces'). */
import confetti from 'canvas-confetti'

export const CONFETTI_DURATION_MS = 2000
export const CONFETTI_PIECES = 150
/** Above the drawer (z-modal 1100) and toasts. */
const CONFETTI_Z_INDEX = 1300

export function prefersReducedMotion(): boolean {
  return (
    typeof window !== 'undefined' &&
    typeof window.matchMedia === 'function' &&
    window.matchMedia('(prefers-reduced-motion: reduce)').matches
  )
}

/**
 * Fires 150 pieces that settle within about 2000 ms (canvas-confetti counts life in frames of
 * ~16.7 ms). Nothing happens when the user prefers reduced motion.
 */
export function celebrate({
  durationMs = CONFETTI_DURATION_MS,
  pieces = CONFETTI_PIECES,
}: {
  durationMs?: number
  pieces?: number
} = {}): void {
  if (prefersReducedMotion()) return
  const ticks = Math.round(durationMs / (1000 / 60))
  const half = Math.floor(pieces / 2)
  const common = {
    ticks,
    spread: 70,
    startVelocity: 45,
    zIndex: CONFETTI_Z_INDEX,
    disableForReducedMotion: true,
  }
  try {
    void confetti({ ...common, particleCount: half, angle: 60, origin: { x: 0, y: 0.7 } })
    void confetti({ ...common, particleCount: pieces - half, angle: 120, origin: { x: 1, y: 0.7 } })
  } catch (error) {
    console.error('Confetti failed', error)
  }
}
