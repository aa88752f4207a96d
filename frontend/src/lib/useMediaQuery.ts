import { useCallback, useSyncExternalStore } from 'react'

/** Tailwind's `sm` breakpoint (tokens.css: --breakpoint-sm 40rem). */
export const SM_UP = '(min-width: 40rem)'

/** Tailwind's `lg` breakpoint (64rem). */
export const LG_UP = '(min-width: 64rem)'

/** Whether a media query matches now; `fallback` without matchMedia (tests, old browsers). */
export function mediaMatches(query: string, fallback = true): boolean {
  return typeof window !== 'undefined' && typeof window.matchMedia === 'function'
    ? window.matchMedia(query).matches
    : fallback
}

/**
 * Whether a media query matches, kept in sync with the window. Without matchMedia (tests, old
 * browsers) it reports `fallback`.
 */
export function useMediaQuery(query: string, fallback = true): boolean {
  const subscribe = useCallback(
    (onChange: () => void) => {
      if (typeof window === 'undefined' || typeof window.matchMedia !== 'function') return () => {}
      const list = window.matchMedia(query)
      list.addEventListener?.('change', onChange)
      return () => list.removeEventListener?.('change', onChange)
    },
    [query],
  )
  return useSyncExternalStore(
    subscribe,
    () => mediaMatches(query, fallback),
    () => fallback,
  )
}
