/**
 * Opening the request drawer from anywhere in the signed-in app: begin-request buttons call
 * `useRequestDrawer().open({ surveyId, surveyName })` (spec §2 'Request drawer').
 */
import {
  createContext,
  lazy,
  type ReactNode,
  Suspense,
  useCallback,
  useContext,
  useMemo,
  useState,
} from 'react'

export const INTRO_SURVEY_ID = 603
/** The intro survey's name, shown as the drawer title while it loads. */
export const INTRO_SURVEY_NAME = 'Tell us what you need'
export const BENEFITS_HELP_SURVEY_ID = 720

export interface RequestDrawerTarget {
  surveyId: number
  surveyName?: string
}

interface RequestDrawerApi {
  open: (target: RequestDrawerTarget) => void
  close: () => void
  target: RequestDrawerTarget | null
}

const RequestDrawerContext = createContext<RequestDrawerApi | null>(null)

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
          <RequestDrawer key={target.surveyId} target={target} onClose={close} />
        </Suspense>
      )}
    </RequestDrawerContext.Provider>
  )
}

export function useRequestDrawer(): RequestDrawerApi {
  const api = useContext(RequestDrawerContext)
  if (!api) throw new Error('useRequestDrawer must be used inside RequestDrawerProvider')
  return api
}
