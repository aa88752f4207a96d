/**
 * The request drawer around the signed-in screens: opened through `useRequestDrawer()`. It lives
 * in the history (useDrawerHistory), so Back closes it and leaves the screen where it was.
 */
import { lazy, type ReactNode, Suspense, useMemo } from 'react'
import { Spinner, useDrawerHistory } from '@/design-system'
import { RequestDrawerContext, type RequestDrawerTarget } from './requestDrawer'

const RequestDrawer = lazy(() => import('./components/RequestDrawer'))

export function RequestDrawerProvider({ children }: { children: ReactNode }) {
  const { value: target, open, close } = useDrawerHistory<RequestDrawerTarget>('request')
  const value = useMemo(() => ({ open, close, target }), [open, close, target])
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
