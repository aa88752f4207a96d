/** The first-ever request celebration (spec §4; §9 'Confetti default 2000 ms, 150 pieces'). */
import confetti from 'canvas-confetti'

export const CONFETTI_DURATION_MS = 2000
export const CONFETTI_PIECES = 150
/** Above the drawer (z-modal 1100) and toasts. */
const CONFETTI_Z_INDEX = 1300

/**
 * canvas-confetti's default export draws in a Web Worker loaded from a blob: URL, which our
 * Content-Security-Policy (script-src 'self', no worker-src) blocks: the canvas was added but
 * never drawn on nor removed. So it draws on the main thread, on a full-window canvas of ours:
 * a decoration, hidden from assistive technology (it stands outside every landmark), added for
 * one celebration and removed when its pieces have settled.
 */
function confettiCanvas(): HTMLCanvasElement {
  const canvas = document.createElement('canvas')
  canvas.setAttribute('aria-hidden', 'true')
  Object.assign(canvas.style, {
    position: 'fixed',
    inset: '0',
    width: '100%',
    height: '100%',
    pointerEvents: 'none',
    zIndex: String(CONFETTI_Z_INDEX),
  })
  document.body.appendChild(canvas)
  return canvas
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
  const common = { ticks, spread: 70, startVelocity: 45, disableForReducedMotion: true }
  try {
    const canvas = confettiCanvas()
    const cannon = confetti.create(canvas, { resize: true, useWorker: false })
    const bursts = [
      cannon({ ...common, particleCount: half, angle: 60, origin: { x: 0, y: 0.7 } }),
      cannon({ ...common, particleCount: pieces - half, angle: 120, origin: { x: 1, y: 0.7 } }),
    ]
    void Promise.allSettled(bursts).then(() => canvas.remove())
  } catch (error) {
    console.error('Confetti failed', error)
  }
}
