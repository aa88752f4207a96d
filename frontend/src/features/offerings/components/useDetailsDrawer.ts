import { useCallback, useState } from 'react'
import type { Offering } from '../api'

/** Which offering's details drawer is open (spec §4 'Offerings': open or closed). */
export function useDetailsDrawer() {
  const [selected, setSelected] = useState<Offering | null>(null)
  const open = useCallback((offering: Offering) => setSelected(offering), [])
  const close = useCallback(() => setSelected(null), [])
  return { selected, open, close }
}
