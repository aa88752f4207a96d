import { useEffect } from 'react'
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router'
import { trackPageView } from '@/lib/analytics'
import { config } from '@/lib/config'
import { markFirstScreenShown } from '@/lib/firstScreen'
import { titleWithCount, useScreenTitleValue, useTitleCount } from '@/lib/titleCount'
import { RouteAnnouncer } from '../RouteAnnouncer'

interface RouteHandle {
  title?: string
  /** The route only sends the browser elsewhere: its page view is the destination's. */
  redirect?: boolean
}

/**
 * Page title 'Product | Route title' (spec §2), or 'Product | what the screen shows' where a
 * screen names itself (useScreenTitle), led by the signed-in shell's count of unread requests
 * when there are any ('(2) Product | Route title'), page-view analytics (one page view
 * per address the user lands on, never for a route that redirects, titled without the count),
 * focus on navigation.
 */
export function RootLayout() {
  const matches = useMatches()
  const location = useLocation()
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)
    ?.handle as RouteHandle | undefined

  const redirects = matches.some((m) => (m.handle as RouteHandle | undefined)?.redirect)
  const fullTitle = title?.title ? `${config.productName} | ${title.title}` : config.productName
  const count = useTitleCount()
  const screenTitle = useScreenTitleValue()
  useEffect(markFirstScreenShown, [])
  useEffect(() => {
    const shown = screenTitle ? `${config.productName} | ${screenTitle}` : fullTitle
    document.title = titleWithCount(shown, count)
  }, [fullTitle, screenTitle, count])
  useEffect(() => {
    if (!redirects) trackPageView(location.pathname, fullTitle)
  }, [fullTitle, location.pathname, redirects])

  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <RouteAnnouncer pathname={location.pathname} title={title?.title ?? config.productName} />
    </>
  )
}
