import { lazy, Suspense, useEffect, useState } from 'react'
import { whenIdle } from '@/lib/whenIdle'
import type { OfferingDetailsDrawerProps } from './OfferingDetailsDrawer'

const loadDrawer = () => import('./OfferingDetailsDrawer')
const OfferingDetailsDrawer = lazy(async () => ({
  default: (await loadDrawer()).OfferingDetailsDrawer,
}))

/**
 * The offering details drawer of a catalogue screen. Its code (the dialog and its focus
 * handling) is not part of the screen's first load: it is fetched once the screen has shown
 * and the browser is idle, and the drawer mounts the first time a card opens it (then stays,
 * for its closing animation).
 */
export function DetailsDrawer(props: OfferingDetailsDrawerProps) {
  const [opened, setOpened] = useState(false)
  if (props.offeringId !== null && !opened) setOpened(true)
  useEffect(() => whenIdle(loadDrawer), [])
  if (!opened) return null
  return (
    <Suspense fallback={null}>
      <OfferingDetailsDrawer {...props} />
    </Suspense>
  )
}
