/**
 * The signed-in shell's screen. Every screen is a lazy route, and the router keeps showing the
 * screen being left until the next one's code has arrived: on a slow network a tap would seem to
 * do nothing. So the next screen's skeleton takes its place at once; screen readers hear the
 * skeleton's loading status, and the new page is announced once it shows (RouteAnnouncer).
 */
import { Outlet, useLocation, useNavigation } from 'react-router'
import { Skeleton, SkeletonGroup } from '@/design-system'
import { RequestsLoading } from '@/features/requests/components/RequestsLoading'
import type { AuthedContext } from '@/lib/currentUser'
import { NAV_ITEMS } from './navItems'

/** The screens the navigation links to, by address, with the name it shows them by. */
const LINKED_SCREENS: Record<string, string> = {
  ...Object.fromEntries(NAV_ITEMS.map(({ to, label }) => [to, label])),
  '/account': 'Account',
}

/** The shell's parts: a screen under one of them shows inside this shell too. */
const SHELL_SECTIONS = [...Object.keys(LINKED_SCREENS), '/company']

export function ScreenOutlet({ context }: { context: AuthedContext }) {
  const next = useScreenOnItsWay()
  if (next) return <ScreenLoading pathname={next} />
  return <Outlet context={context} />
}

/** The address of another of the shell's screens that a navigation is loading, else null. */
function useScreenOnItsWay(): string | null {
  const navigation = useNavigation()
  const { pathname } = useLocation()
  const next = navigation.state === 'loading' ? navigation.location.pathname : null
  return next && next !== pathname && inShell(next) ? next : null
}

function inShell(pathname: string): boolean {
  return SHELL_SECTIONS.some(
    (section) => pathname === section || pathname.startsWith(`${section}/`),
  )
}

function ScreenLoading({ pathname }: { pathname: string }) {
  if (pathname === '/requests') return <RequestsLoading />
  const name = LINKED_SCREENS[pathname]
  return <ScreenSkeleton label={name ? `Loading ${name}` : 'Loading'} />
}

/** A title and a few cards, as the document's own first paint shows a signed-in screen. */
function ScreenSkeleton({ label }: { label: string }) {
  return (
    <SkeletonGroup label={label} className="flex flex-col gap-6">
      <Skeleton className="h-9 w-56" />
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 2xl:grid-cols-3">
        {[0, 1, 2].map((card) => (
          <Skeleton key={card} className="h-40 rounded-2xl" />
        ))}
      </div>
    </SkeletonGroup>
  )
}
