/**
 * The signed-in screens' user: the cached `/users/current` query (its first answer is the
 * request the app started, see queryClient.ts) and signing out from a button.
 */
import { queryOptions, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { resetAnalyticsIdentity } from '@/lib/analytics'
import { CURRENT_USER_FRESH_MS, fetchCurrentUser, signOut } from '@/lib/currentUser'
import { returnTarget } from '@/lib/session'

export const currentUserQuery = queryOptions({
  queryKey: ['currentUser'],
  queryFn: (): Promise<CurrentUser> => fetchCurrentUser(),
  staleTime: CURRENT_USER_FRESH_MS,
  retry: false,
})

/**
 * Signing out from a button (the Account screen, the desk's top bar): the session is cleared
 * whatever the server said (spec §4), then SignIn, with no return target (only a forced sign-out
 * remembers one, spec §2), an empty cache and a fresh analytics identity.
 */
export function useSignOut() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [signingOut, setSigningOut] = useState(false)
  const onSignOut = async () => {
    setSigningOut(true)
    try {
      await signOut()
    } catch (error) {
      console.error(error)
    }
    // Awaited: until the sign-in page is the location, a late 401 from the screen left behind
    // would remember that screen as where to return after the next sign-in.
    await navigate('/sign-in', { replace: true })
    returnTarget.take()
    queryClient.clear()
    resetAnalyticsIdentity()
  }
  return { signingOut, onSignOut }
}
