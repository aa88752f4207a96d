/**
 * The analytics tag (gtag.js by default, VITE_ANALYTICS_SCRIPT_URL otherwise), loaded on the
 * first page view. It is told page views and the identity through `window.dataLayer`, in gtag's
 * own call format; paths that carry tokens or ids are anonymised first (spec §2, §8), and the
 * automatic page view (which would read the real address) is off.
 */
import { anonymisedPath } from './anonymisedPath'
import { config } from './config'

declare global {
  interface Window {
    dataLayer?: unknown[]
  }
}

/** gtag's queue call: the tag reads `arguments` objects from the data layer. */
function gtag(..._args: unknown[]) {
  window.dataLayer = window.dataLayer ?? []
  // biome-ignore lint/complexity/noArguments: gtag.js only reads Arguments objects
  window.dataLayer.push(arguments)
}

let started = false
let previousLocation: string | undefined

/** The page's address as analytics may see it: no query, no fragment, path anonymised. */
function anonymisedLocation(path: string): string {
  return `${window.location.origin}${anonymisedPath(path)}`
}

/** Where the first page came from: another site as it is, one of ours anonymised. */
function firstReferrer(): string {
  if (!document.referrer) return ''
  try {
    const referrer = new URL(document.referrer)
    if (referrer.origin !== window.location.origin) return referrer.origin
    return anonymisedLocation(referrer.pathname)
  } catch {
    return ''
  }
}

function start() {
  if (started || !config.analyticsId) return
  started = true
  gtag('js', new Date())
  gtag('config', config.analyticsId, {
    send_page_view: false,
    page_location: anonymisedLocation(window.location.pathname),
  })
  const script = document.createElement('script')
  script.async = true
  script.src = `${config.analyticsScriptUrl}?id=${encodeURIComponent(config.analyticsId)}`
  document.head.appendChild(script)
}

export function pageView(path: string, title: string) {
  start()
  const location = anonymisedLocation(path)
  gtag('event', 'page_view', {
    page_title: title,
    page_path: anonymisedPath(path),
    page_location: location,
    page_referrer: previousLocation ?? firstReferrer(),
  })
  previousLocation = location
}

/** The identity the tag was last told (undefined: none yet on this page). */
let identity: string | null | undefined

/** The signed-in user's id; told once, not again on every refresh of the user. */
export function identify(userId: string) {
  if (identity === userId) return
  start()
  identity = userId
  gtag('set', { user_id: userId })
}

export function resetIdentity() {
  start()
  identity = null
  gtag('set', { user_id: null })
}
