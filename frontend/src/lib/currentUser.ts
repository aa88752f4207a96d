/**
 * The signed-in user, shared by every screen: the `/users/current` request, the user a
 * signed-in route receives from its guard, where a user lands after signing in, and signing out.
 * Nothing here needs the query cache, so the sign-in family loads without it; the cache takes
 * over the request started here when it loads (queryClient.ts).
 */
import { useOutletContext } from 'react-router'
import { api, type CurrentUser } from '@/api/client'
import { setAnalyticsIdentity } from '@/lib/analytics'
import { returnTarget, session } from '@/lib/session'

export const REFRESH_USER_FAILED = 'Failed to refresh current user state'

/** How long an answer to the user request stands for the user (the user query's staleTime). */
export const CURRENT_USER_FRESH_MS = 60_000

export class UnauthorizedError extends Error {
  constructor() {
    super('Unauthorized')
  }
}

export async function fetchCurrentUser(): Promise<CurrentUser> {
  const { data, response } = await api.GET('/api/v1/users/current')
  if (!data) {
    if (response.status === 401) throw new UnauthorizedError()
    throw new Error(REFRESH_USER_FAILED)
  }
  // Signed in: analytics knows the user by their external id until sign-out (spec §4).
  setAnalyticsIdentity(data.external_id)
  return data
}

let requested: { user: Promise<CurrentUser>; at: number } | null = null

// A request made for another session (signed out, another account, MFA since verified) is stale.
session.subscribe(() => {
  requested = null
})

/**
 * The user, from the request under way (or answered within CURRENT_USER_FRESH_MS) in this
 * session, else from a new one: a screen, a guard and the user query ask the server once.
 */
export function requestCurrentUser(): Promise<CurrentUser> {
  if (requested && Date.now() - requested.at < CURRENT_USER_FRESH_MS) return requested.user
  const own = { user: fetchCurrentUser(), at: Date.now() }
  requested = own
  own.user.catch(() => {
    if (requested === own) requested = null
  })
  return own.user
}

/** The user request under way or freshly answered, handed over once (to the query cache). */
export function takeRequestedUser(): Promise<CurrentUser> | null {
  const fresh = requested && Date.now() - requested.at < CURRENT_USER_FRESH_MS
  const user = fresh ? (requested?.user ?? null) : null
  requested = null
  return user
}

/** Asks for the user as the app starts, while a signed-in screen's code loads. */
export function prefetchCurrentUser() {
  const state = session.get()
  if (!session.isAuthenticated(state) || state.mfaRequired || state.mfaEnrollmentAvailable) return
  void requestCurrentUser().catch(() => {})
}

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
export async function resolvePostLoginPath(): Promise<string> {
  const target = returnTarget.take()
  if (target) return target
  try {
    return homePath(await requestCurrentUser())
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
