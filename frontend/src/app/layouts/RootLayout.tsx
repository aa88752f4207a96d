import { useEffect } from 'react'
import { Outlet, ScrollRestoration, useLocation, useMatches } from 'react-router'
import { trackPageView } from '@/lib/analytics'
import { config } from '@/lib/config'

interface RouteHandle {
  title?: string
}

/** Page title 'Product | Route title' (spec §2) and page-view analytics. */
export function RootLayout() {
  const matches = useMatches()
  const location = useLocation()
  const title = [...matches].reverse().find((m) => (m.handle as RouteHandle | undefined)?.title)
    ?.handle as RouteHandle | undefined

  useEffect(() => {
    const fullTitle = title?.title ? `${config.productName} | ${title.title}` : config.productName
    document.title = fullTitle
    trackPageView(location.pathname, fullTitle)
  }, [title, location.pathname])

  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  )
}
