/**
 * Opening the request drawer from anywhere in the signed-in app: begin-request buttons call
 * `useRequestDrawer().open({ surveyId, surveyName })` (spec §2 'Request drawer'). The drawer
 * itself is the request-drawer feature's, provided around the signed-in screens.
 */
import { createContext, useContext } from 'react'

export const INTRO_SURVEY_ID = 603
/** The intro survey's name, shown as the drawer title while it loads. */
export const INTRO_SURVEY_NAME = 'Tell us what you need'
export const BENEFITS_HELP_SURVEY_ID = 720

export interface RequestDrawerTarget {
  surveyId: number
  surveyName?: string
  /** The offering whose 'Get help' opened the drawer: only its own unsubmitted run resumes. */
  offeringId?: number
  /**
   * The server refused to begin because that offering is gone for the user (turned off, or its
   * 'Get help' changed): whoever showed it refreshes what they show.
   */
  onOfferingGone?: () => void
  /**
   * The answer that offering starts its survey with: the question is asked with this option
   * already chosen ('Medical insurance' for 'Which benefit do you need help with?'), and the
   * person can still change it.
   */
  answer?: { questionId: number; value: string }
}

export interface RequestDrawerApi {
  open: (target: RequestDrawerTarget) => void
  close: () => void
  target: RequestDrawerTarget | null
}

/** Provided by the request-drawer feature's `RequestDrawerProvider`, mounted by the app layout. */
export const RequestDrawerContext = createContext<RequestDrawerApi | null>(null)

export function useRequestDrawer(): RequestDrawerApi {
  const api = useContext(RequestDrawerContext)
  if (!api) throw new Error('useRequestDrawer must be used inside RequestDrawerProvider')
  return api
}
