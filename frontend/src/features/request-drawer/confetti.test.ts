import confetti from 'canvas-confetti'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createGate } from '@/test/gate'
import { CONFETTI_DURATION_MS, CONFETTI_PIECES, celebrate } from './confetti'

// celebrate() fires through confetti.create(canvas): the mock hands back the default mock,
// whose bursts settle when the test opens their gate.
const burstsSettle = vi.hoisted(() => ({ gate: Promise.resolve() }))
vi.mock('canvas-confetti', () => {
  const fire = vi.fn(() => burstsSettle.gate)
  return {
    default: Object.assign(fire, { create: vi.fn(() => fire) }),
  }
})

function stubReducedMotion(reduce: boolean) {
  vi.stubGlobal(
    'matchMedia',
    vi.fn((query: string) => ({ matches: reduce && query.includes('reduce'), media: query })),
  )
}

describe('celebrate (confetti)', () => {
  beforeEach(() => vi.mocked(confetti).mockClear())
  afterEach(() => vi.unstubAllGlobals())

  it('§9 confetti: 150 pieces that last 2000 ms by default', () => {
    expect(CONFETTI_PIECES).toBe(150)
    expect(CONFETTI_DURATION_MS).toBe(2000)
    stubReducedMotion(false)
    celebrate()
    const calls = vi.mocked(confetti).mock.calls.map(([options]) => options ?? {})
    expect(calls.reduce((sum, o) => sum + (o.particleCount ?? 0), 0)).toBe(150)
    // canvas-confetti counts a piece's life in ~60 fps frames: 2000 ms ≈ 120 ticks.
    for (const options of calls) {
      expect(options.ticks).toBe(120)
      expect(options.disableForReducedMotion).toBe(true)
    }
  })

  it('§9 confetti: drawn on a canvas above the drawer, hidden from assistive technology and removed once the pieces settle', async () => {
    stubReducedMotion(false)
    const settled = createGate()
    burstsSettle.gate = settled.opened
    celebrate()
    const canvas = vi.mocked(confetti.create).mock.lastCall?.[0] as HTMLCanvasElement
    expect(canvas.parentNode).toBe(document.body)
    expect(canvas.getAttribute('aria-hidden')).toBe('true')
    expect(Number(canvas.style.zIndex)).toBeGreaterThan(1200)
    expect(canvas.style.pointerEvents).toBe('none')
    settled.open()
    await vi.waitFor(() => expect(canvas.isConnected).toBe(false))
  })

  it('§8 look and feel: nothing when the user prefers reduced motion', () => {
    stubReducedMotion(true)
    celebrate()
    expect(confetti).not.toHaveBeenCalled()
  })
})
