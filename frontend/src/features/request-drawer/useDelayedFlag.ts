import { useEffect, useState } from 'react'

/** Spec §9: the typing indicator shows only when a fetch takes over 250 ms. */
export const TYPING_INDICATOR_DELAY_MS = 250

/** True once `active` has stayed true for `delayMs`; false as soon as it turns false. */
export function useDelayedFlag(active: boolean, delayMs: number = TYPING_INDICATOR_DELAY_MS) {
  const [elapsed, setElapsed] = useState(false)
  useEffect(() => {
    if (!active) {
      setElapsed(false)
      return
    }
    const timer = setTimeout(() => setElapsed(true), delayMs)
    return () => clearTimeout(timer)
  }, [active, delayMs])
  return active && elapsed
}
