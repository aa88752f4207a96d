/**
 * Notifications (issue 28). This entry holds only lazy wrappers (it is part of the signed-in
 * chunk): each piece, and all push code, is its own chunk loaded when its screen shows it, so
 * none of it is in a page's first load.
 */
import { createElement, lazy, Suspense } from 'react'

const Section = lazy(() =>
  import('./components/NotificationsSection').then((m) => ({ default: m.NotificationsSection })),
)
const Prompt = lazy(() =>
  import('./components/PushPrompt').then((m) => ({ default: m.PushPrompt })),
)
const Menu = lazy(() =>
  import('./components/DeskNotifications').then((m) => ({ default: m.DeskNotifications })),
)

/** Account page: the Notifications section. */
export function NotificationsSection() {
  return createElement(Suspense, { fallback: null }, createElement(Section))
}

/** Requests page: the app's own question before the browser's permission prompt. */
export function PushPrompt(props: { requestCount: number }) {
  return createElement(Suspense, { fallback: null }, createElement(Prompt, props))
}

/** The desk's notification menu. */
export function DeskNotifications() {
  return createElement(Suspense, { fallback: null }, createElement(Menu))
}

// How long after the first screen (and the page's load) the service worker starts: its chunk,
// its registration and the app shell it caches never compete with the first screen's requests.
const SERVICE_WORKER_DELAY_MS = 2000

/** Registers the service worker, from its own chunk, once the first screen has settled. */
export function registerServiceWorkerLater() {
  window.setTimeout(
    () =>
      void import('./serviceWorker').then(
        (m) => m.registerWhenLoaded(),
        // Offline by then, or a new release replaced the chunk: the next page load registers it.
        () => undefined,
      ),
    SERVICE_WORKER_DELAY_MS,
  )
}
