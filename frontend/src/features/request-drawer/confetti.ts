/** The first-ever request celebration (spec §4; §9 'Confetti default 2000 ms, 150 pieces'). */
import confetti from 'canvas-confetti'

export const CONFETTI_DURATION_MS = 2000
export const CONFETTI_PIECES = 150
/** Above the drawer (z-modal 1100) and toasts. */
const CONFETTI_Z_INDEX = 1300

let cannon: confetti.CreateTypes | null = null

/**
 * canvas-confetti's default export draws in a Web Worker loaded from a blob: URL, which our
 * Content-Security-Policy (script-src 'self', no worker-src) blocks: the canvas was added but
 * never drawn on nor removed. Draw on the main thread instead, on the library's own full-page
 * canvas (created for each burst, removed when the pieces have settled).
 */
function fire(options: confetti.Options): void {
  cannon ??= confetti.create(undefined, { resize: true, useWorker: false })
  void cannon(options)
}

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
    fire({ ...common, particleCount: half, angle: 60, origin: { x: 0, y: 0.7 } })
    fire({ ...common, particleCount: pieces - half, angle: 120, origin: { x: 1, y: 0.7 } })
  } catch (error) {
    console.error('Confetti failed', error)
  }
}
