/** The request drawer around the signed-in screens: opened through `useRequestDrawer()`. */
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react'
import { Spinner } from '@/design-system'
import { RequestDrawerContext, type RequestDrawerTarget } from './requestDrawer'

const RequestDrawer = lazy(() => import('./components/RequestDrawer'))

export function RequestDrawerProvider({ children }: { children: ReactNode }) {
  const [target, setTarget] = useState<RequestDrawerTarget | null>(null)
  const close = useCallback(() => setTarget(null), [])
  const value = useMemo(() => ({ open: setTarget, close, target }), [close, target])
  return (
    <RequestDrawerContext.Provider value={value}>
      {children}
      {target && (
        <Suspense fallback={<DrawerLoading />}>
          <RequestDrawer
            key={`${target.surveyId}:${target.offeringId ?? ''}`}
            target={target}
            onClose={close}
          />
        </Suspense>
      )}
    </RequestDrawerContext.Provider>
  )
}

/** While the drawer's code loads (its first opening, on a slow network): the drawer's scrim
 * with a spinner, so the tap that opened it visibly did something. */
function DrawerLoading() {
  return (
    <div
      className="fixed inset-0 z-modal grid place-items-center bg-scrim"
      data-testid="drawer-loading"
    >
      <Spinner label="Opening" className="text-neutral-0" />
    </div>
  )
}
