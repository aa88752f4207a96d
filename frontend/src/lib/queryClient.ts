/**
 * The server-state cache of the screens that use it (the signed-in family, and the sign-in
 * family's screens past the sign-in form): loaded with them, never on the sign-in page itself.
 */
import { type EnsureQueryDataOptions, QueryClient, type QueryKey } from '@tanstack/react-query'
import { takeRequestedUser } from '@/lib/currentUser'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { firstScreenShown } from '@/lib/firstScreen'
import { session } from '@/lib/session'

export const queryClient = new QueryClient({
  defaultOptions: {
    // Data a couple of seconds old counts as fresh: a screen mounting just after its route
    // loader asked for its data (see signedInLoader) does not ask again.
    queries: { refetchOnWindowFocus: true, retry: 1, staleTime: 2_000 },
  },
})

// The user request the app started before this cache existed is the user query's first answer
// (anything that changes the user later invalidates the query, which then asks again).
const requestedUser = takeRequestedUser()
if (requestedUser) {
  void queryClient.prefetchQuery({ ...currentUserQuery, queryFn: () => requestedUser })
}

// Signed out, by a button, a 401 or another tab (spec §4): nothing cached outlives the session.
session.subscribe(() => {
  if (!session.get().token) queryClient.clear()
})

/** Starts a query unless its data is cached already (the screen refreshes what is cached). */
export function warmQuery<TQueryFnData, TError, TData, TQueryKey extends QueryKey>(
  query: EnsureQueryDataOptions<TQueryFnData, TError, TData, TQueryKey>,
): Promise<unknown> {
  // A failure shows on the screen, whose own query asks again.
  return queryClient.ensureQueryData(query).catch(() => {})
}

/**
 * How long the app's first screen waits for its data before it renders with its skeleton (the
 * document's own skeleton shows meanwhile).
 */
const FIRST_SCREEN_WAIT_MS = 3_000

/**
 * A signed-in screen's route loader: starts the user's request and the queries its first paint
 * waits on as the navigation begins, rather than once the guard has the user. The app's first
 * screen waits for them, so it renders once, complete, while the document shows its skeleton;
 * a screen navigated to within the app renders at once and shows its own skeleton meanwhile.
 */
export function signedInLoader(warm: () => Promise<unknown>[]) {
  return async () => {
    const state = session.get()
    if (!session.isAuthenticated(state) || state.mfaRequired || state.mfaEnrollmentAvailable) {
      return null
    }
    const pending = [warmQuery(currentUserQuery), ...warm()]
    if (!firstScreenShown()) {
      let timer: ReturnType<typeof setTimeout> | undefined
      const wait = new Promise((resolve) => {
        timer = setTimeout(resolve, FIRST_SCREEN_WAIT_MS)
      })
      await Promise.race([Promise.allSettled(pending), wait])
      clearTimeout(timer)
    }
    return null
  }
}

/** A first load that waits for the connection: TanStack Query pauses it while the browser is
 * offline, so it neither fails nor ends (a screen shows `WaitingForConnection`, not a skeleton). */
export function waitsForConnection(query: { isPending: boolean; fetchStatus: string }): boolean {
  return query.isPending && query.fetchStatus === 'paused'
}
