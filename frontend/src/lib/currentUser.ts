/**
 * The signed-in user, shared by every screen: the cached `/users/current` query, the user a
 * signed-in route receives from its guard, where a user lands after signing in, and signing out.
 */
import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useNavigate, useOutletContext } from 'react-router'
import { api, type CurrentUser } from '@/api/client'
import { resetAnalyticsIdentity, setAnalyticsIdentity } from '@/lib/analytics'
import { returnTarget, session } from '@/lib/session'

export const REFRESH_USER_FAILED = 'Failed to refresh current user state'

export class UnauthorizedError extends Error {
  constructor() {
    super('Unauthorized')
  }
}

export const currentUserQuery = queryOptions({
  queryKey: ['currentUser'],
  queryFn: async (): Promise<CurrentUser> => {
    const { data, response } = await api.GET('/api/v1/users/current')
    if (!data) {
      if (response.status === 401) throw new UnauthorizedError()
      throw new Error(REFRESH_USER_FAILED)
    }
    // Signed in: analytics knows the user by their external id until sign-out (spec §4).
    setAnalyticsIdentity(data.external_id)
    return data
  },
  staleTime: 60_000,
  retry: false,
})

/** What a signed-in route's guard hands to the screens below it. */
export interface AuthedContext {
  user: CurrentUser
}

export function useCurrentUser(): CurrentUser {
  return useOutletContext<AuthedContext>().user
}

/** Where a concierge's workspace starts. */
export const CONCIERGE_HOME = '/concierge'

/** A signed-in user's home: the concierge desk for concierges, else the Dashboard. */
export function homePath(user?: Pick<CurrentUser, 'is_concierge'> | null): string {
  return user?.is_concierge ? CONCIERGE_HOME : '/dashboard'
}

/** The post-login landing: the remembered return target, or the user's home. */
export function postLoginPath(user?: Pick<CurrentUser, 'is_concierge'> | null): string {
  return returnTarget.take() ?? homePath(user)
}

/**
 * The post-login landing when the user is not loaded yet (right after sign-in): the return
 * target, else the home of the freshly fetched user; the Dashboard when that fetch fails.
 */
export async function resolvePostLoginPath(queryClient: QueryClient): Promise<string> {
  const target = returnTarget.take()
  if (target) return target
  try {
    return homePath(await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 }))
  } catch {
    return homePath(null)
  }
}

export async function signOut(): Promise<void> {
  try {
    await api.DELETE('/api/v1/users/sign_out')
  } finally {
    session.clear()
  }
}

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
    navigate('/sign-in', { replace: true })
    returnTarget.take()
    queryClient.clear()
    resetAnalyticsIdentity()
  }
  return { signingOut, onSignOut }
}
