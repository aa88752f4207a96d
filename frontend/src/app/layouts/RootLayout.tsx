import { useEffect } from 'react'
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router'
import { trackPageView } from '@/lib/analytics'
import { config } from '@/lib/config'
import { RouteAnnouncer } from '../RouteAnnouncer'

interface RouteHandle {
  title?: string
}

/** Page title 'Product | Route title' (spec §2), page-view analytics, focus on navigation. */
export function RootLayout() {
  const matches = useMatches()
  const location = useLocation()
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)
    ?.handle as RouteHandle | undefined

  const fullTitle = title?.title ? `${config.productName} | ${title.title}` : config.productName
  useEffect(() => {
    document.title = fullTitle
    trackPageView(location.pathname, fullTitle)
  }, [fullTitle, location.pathname])

  return (
    <>
      <Outlet />
      <ScrollRestoration />
      <RouteAnnouncer pathname={location.pathname} title={title?.title ?? config.productName} />
    </>
  )
}
