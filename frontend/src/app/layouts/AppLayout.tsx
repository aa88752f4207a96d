import { Navigate, useOutletContext } from 'react-router'
import { MainContent, SkipLink } from '@/design-system'
import { companyAccessQuery } from '@/features/company/api'
import { unreadCountQuery } from '@/features/conversation'
import { RequestDrawerProvider } from '@/features/request-drawer/RequestDrawerProvider'
import { useRequestsLive } from '@/features/requests/live'
import type { AuthedContext } from '@/lib/currentUser'
import { signedInLoader, warmQuery } from '@/lib/queryClient'
import { siteQuery } from '@/lib/site'
import { AppFooter } from '../shell/AppFooter'
import { BottomNav } from '../shell/BottomNav'
import { MobileHeader } from '../shell/MobileHeader'
import { ScreenOutlet } from '../shell/ScreenOutlet'
import { TopNav } from '../shell/TopNav'
import { UnreadTitle } from '../shell/unread'

/**
 * The shell's own data (the footer's links, the company report link, the unread requests' count)
 * comes with the screen's.
 */
export const loader = signedInLoader(() => [
  warmQuery(siteQuery),
  warmQuery(companyAccessQuery()),
  warmQuery(unreadCountQuery),
])

/** Live updates of the employee's requests; the stream's status re-renders nothing else. */
function RequestsLive() {
  useRequestsLive()
  return null
}

/**
 * The signed-in shell (spec §2 Navigation): top navigation on sm and wider, a bottom bar with
 * the create-request button on small screens. Users who still owe onboarding go there first.
 */
export function AppLayout() {
  const context = useOutletContext<AuthedContext>()
  const { user } = context
  if (user.onboarding_required) return <Navigate to="/welcome/about-us" replace />
  return (
    <RequestDrawerProvider>
      <div className="flex min-h-dvh flex-col bg-canvas">
        <RequestsLive />
        <UnreadTitle />
        <SkipLink />
        <TopNav user={user} />
        <MobileHeader />
        <MainContent className="max-w-6xl px-5 pt-2 pb-10 sm:px-6 sm:pt-10 sm:pb-16">
          <ScreenOutlet context={context} />
        </MainContent>
        <AppFooter user={user} />
        <BottomNav user={user} />
      </div>
    </RequestDrawerProvider>
  )
}
