import { useDrawerHistory } from '@/design-system'
import type { Offering } from '../api'

/**
 * Which offering's details drawer is open (spec §4 'Offerings': open or closed). It lives in the
 * history (useDrawerHistory), so Back closes it and leaves the catalogue where it was.
 */
export function useDetailsDrawer() {
  const { value: selected, open, close } = useDrawerHistory<Offering>('offering-details')
  return { selected, open, close }
}
