import { useEffect, useRef, useState } from 'react'

/** How long a new page may take to render its heading (data still loading) before main gets focus. */
const HEADING_WAIT_MS = 3000

/**
 * On every route change (not the first load) moves keyboard focus to the new page's <h1>, or its
 * <main> when it has none, and announces the page's title in a polite live region, so keyboard
 * and screen-reader users land at the top of the new page instead of on <body>.
 * Focus the page itself already placed inside <main> (an autofocused field) is left where it is.
 */
export function RouteAnnouncer({ pathname, title }: { pathname: string; title: string }) {
  const [message, setMessage] = useState('')
  const firstPath = useRef<string | null>(pathname)

  useEffect(() => {
    if (firstPath.current === pathname) return
    firstPath.current = null
    let cancelled = false
    const started = performance.now()
    let frame = 0

    const focusPage = () => {
      if (cancelled) return
      const main = document.querySelector<HTMLElement>('main')
      const active = document.activeElement
      if (main && active && active !== document.body && main.contains(active)) return
      const heading = main?.querySelector<HTMLElement>('h1') ?? document.querySelector('h1')
      const waited = performance.now() - started
      if (!heading && waited < HEADING_WAIT_MS) {
        frame = requestAnimationFrame(focusPage)
        return
      }
      const target = heading ?? main
      if (!target) return
      if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1')
      target.classList.add('outline-none')
      target.focus({ preventScroll: true })
    }
    frame = requestAnimationFrame(focusPage)
    return () => {
      cancelled = true
      cancelAnimationFrame(frame)
    }
  }, [pathname])

  useEffect(() => {
    if (firstPath.current === pathname) return
    // Cleared first, so the same title on a new page is announced again.
    setMessage('')
    const timer = window.setTimeout(() => setMessage(title), 100)
    return () => window.clearTimeout(timer)
  }, [title, pathname])

  return (
    <div role="status" aria-live="polite" aria-atomic="true" className="sr-only">
      {message}
    </div>
  )
}
