import { useEffect } from 'react'

/** A screen this much shorter than it was at the same width has an on-screen keyboard open. */
const KEYBOARD_MIN_PX = 150

/**
 * While mounted, marks `<html data-keyboard-open>` when an on-screen keyboard takes the lower
 * part of the screen (the visual viewport is much shorter than it was at this width), so the
 * bottom bar can give way and a docked composer can sit right above the keyboard. Layout then
 * changes only when the keyboard really opens, never on a mere focus change (which would move
 * buttons under a pointer mid-click).
 */
export function useKeyboardOpen(): void {
  useEffect(() => {
    const viewport = window.visualViewport
    if (!viewport) return
    const root = document.documentElement
    let width = window.innerWidth
    let tallest = viewport.height
    const update = () => {
      if (window.innerWidth !== width) {
        width = window.innerWidth
        tallest = viewport.height
      }
      tallest = Math.max(tallest, viewport.height)
      root.toggleAttribute('data-keyboard-open', tallest - viewport.height > KEYBOARD_MIN_PX)
    }
    viewport.addEventListener('resize', update)
    return () => {
      viewport.removeEventListener('resize', update)
      root.removeAttribute('data-keyboard-open')
    }
  }, [])
}
