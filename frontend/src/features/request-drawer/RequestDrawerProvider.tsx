/** The request drawer around the signed-in screens: opened through `useRequestDrawer()`. */
import { lazy, type ReactNode, Suspense, useCallback, useMemo, useState } from 'react'
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
        <Suspense fallback={null}>
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
