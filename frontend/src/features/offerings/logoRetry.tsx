/**
 * Spec §4 'Offerings': if a card's logo fails to load, offerings are refetched, at most 3 times
 * (§9 'Logo reload retries at most 3').
 *
 * A page wraps its cards in <LogoRetryProvider>. The first broken logo refetches every offering
 * list on screen; errors that arrive while that refetch runs join it rather than starting
 * another (and the fetch itself is throttled at 1000 ms, see api.ts). When the refetch settles
 * the `attempt` counter goes up, which remounts every logo image so it loads again (with the
 * fresh address if the server changed it). After the third refetch a logo that still fails
 * stays on the provider's initials.
 */
import { useQueryClient } from '@tanstack/react-query'
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useMemo,
  useRef,
  useState,
} from 'react'
import { offeringKeys } from './api'

export const MAX_LOGO_REFETCHES = 3

interface LogoRetryValue {
  /** How many refetches have completed; logo images are keyed on it. */
  attempt: number
  /** Report a logo that failed to load. */
  onLogoError: () => void
}

const LogoRetryContext = createContext<LogoRetryValue>({ attempt: 0, onLogoError: () => {} })

export function useLogoRetry(): LogoRetryValue {
  return useContext(LogoRetryContext)
}

export function LogoRetryProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient()
  const [attempt, setAttempt] = useState(0)
  const refetches = useRef(0)
  const inFlight = useRef(false)

  const onLogoError = useCallback(() => {
    if (inFlight.current || refetches.current >= MAX_LOGO_REFETCHES) return
    inFlight.current = true
    refetches.current += 1
    void queryClient
      .refetchQueries({ queryKey: offeringKeys.lists(), type: 'active' })
      .catch(() => {})
      .finally(() => {
        inFlight.current = false
        setAttempt(refetches.current)
      })
  }, [queryClient])

  const value = useMemo(() => ({ attempt, onLogoError }), [attempt, onLogoError])
  return <LogoRetryContext.Provider value={value}>{children}</LogoRetryContext.Provider>
}
