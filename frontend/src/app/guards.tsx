/** Route guards: the spec's §2 access rules. */
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { Navigate, Outlet, useLocation } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { type AuthedContext, homePath, requestCurrentUser, useCurrentUser } from '@/lib/currentUser'
import { returnTarget, session, useSession } from '@/lib/session'
import { FullPageSpinner } from './FullPageSpinner'

/** The user once, for a guard of the sign-in family: undefined while asked, null when it failed. */
function useRequestedUser(): { user: CurrentUser | null | undefined; retry: () => void } {
  const [user, setUser] = useState<CurrentUser | null>()
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    let current = true
    if (attempt > 0) setUser(undefined)
    requestCurrentUser().then(
      (answer) => current && setUser(answer),
      () => current && setUser(null),
    )
    return () => {
      current = false
    }
  }, [attempt])
  return { user, retry: () => setAttempt((n) => n + 1) }
}

/** Sends a signed-in user to their home once their role is known. */
function HomeRedirect() {
  const { user } = useRequestedUser()
  if (user === undefined) return <FullPageSpinner />
  return <Navigate to={homePath(user)} replace />
}

/** The user could not be loaded: the spec's §8 text and a way to ask again. */
export function UserLoadFailed({ onRetry }: { onRetry: () => void }) {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-3 p-6 text-center">
      <p className="text-neutral-700">Failed to refresh current user state</p>
      <button
        type="button"
        className="rounded-full bg-primary-700 px-5 py-2 text-white"
        onClick={onRetry}
      >
        Try again
      </button>
    </main>
  )
}

function LoadUserOnce({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const { user, retry } = useRequestedUser()
  if (user === null) return <UserLoadFailed onRetry={retry} />
  if (!user) return <FullPageSpinner />
  return children(user)
}

/**
 * Signed-in screens: otherwise to SignIn, remembering the path (except the root path). The
 * user is loaded below, by the signed-in layout that comes with the screens' code.
 */
export function RequireAuth() {
  const state = useSession()
  const location = useLocation()
  if (!session.isAuthenticated(state)) {
    if (location.pathname !== '/')
      returnTarget.save(location.pathname + location.search + location.hash)
    return <Navigate to="/sign-in" replace />
  }
  if (state.mfaEnrollmentAvailable) return <Navigate to="/mfa-enrollment" replace />
  if (state.mfaRequired) return <Navigate to="/sign-in" replace />
  return <Outlet />
}

/** The concierge desk (inside RequireAuth): anyone else goes to their Dashboard. */
export function RequireConcierge() {
  const user = useCurrentUser()
  if (!user.is_concierge) return <Navigate to="/dashboard" replace />
  return <Outlet context={{ user } satisfies AuthedContext} />
}

/** SignUp, and SignIn without a pending MFA step: a signed-in user goes to their home. */
export function RedirectIfAuthenticated({
  allowPendingMfa = false,
}: {
  allowPendingMfa?: boolean
}) {
  const state = useSession()
  const pendingMfa = state.mfaRequired || state.mfaEnrollmentAvailable
  if (session.isAuthenticated(state) && !(allowPendingMfa && pendingMfa)) {
    if (state.mfaEnrollmentAvailable) return <Navigate to="/mfa-enrollment" replace />
    // The same landing the screen itself navigates to, so a fresh sign-in never flashes another page.
    const target = returnTarget.peek()
    return target ? <Navigate to={target} replace /> : <HomeRedirect />
  }
  return <Outlet />
}

/** MfaEnrollment: only when signed in and enrolment is available or verification required. */
export function RequireMfaEnrollment() {
  const state = useSession()
  const pending = state.mfaEnrollmentAvailable || state.mfaRequired
  // Entered with the check pending: once the code is verified the screen itself moves on (to
  // onboarding when it is owed), so the guard does not send the user through another page first.
  const enteredPending = useRef(pending)
  if (!session.isAuthenticated(state)) return <Navigate to="/sign-in" replace />
  if (pending || enteredPending.current) return <Outlet />
  return (
    <LoadUserOnce>
      {(user) =>
        user.mfa_enrollment_available ? (
          <Outlet />
        ) : (
          <Navigate to={user.onboarding_required ? '/welcome/about-us' : homePath(user)} replace />
        )
      }
    </LoadUserOnce>
  )
}

/** Root path: the user's home (Dashboard, or the desk for a concierge) when signed in, else SignIn. */
export function RootRedirect() {
  const state = useSession()
  if (!session.isAuthenticated(state)) return <Navigate to="/sign-in" replace />
  if (state.mfaRequired || state.mfaEnrollmentAvailable) return <Navigate to="/dashboard" replace />
  return <HomeRedirect />
}
