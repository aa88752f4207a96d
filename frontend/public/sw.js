/*
 * The web app's service worker (issue 28).
 *
 * - The app shell (the page's scripts and styles, the icons, the offline page) is cached when
 *   the worker installs, so the app starts fast; hashed files under /assets/ are kept as they
 *   are fetched. Pages themselves always come from the network; a page that can't load
 *   offline shows the offline page.
 * - Nothing from /api/, /admin/, /media/ or any other origin is ever cached: those answers
 *   hold personal data.
 * - Push: shows the notification the server sent (its text only when the person allowed
 *   previews); a click opens the request.
 */
const VERSION = 'v2'
const CACHE = `concierge-shell-${VERSION}`
const OFFLINE_URL = '/offline.html'
const SHELL = [
  OFFLINE_URL,
  '/offline.js',
  '/manifest.webmanifest',
  '/favicon.svg',
  '/icons/icon-192.png',
  '/icons/apple-touch-icon.png',
]
const NEVER_CACHED = /^\/(api|admin|media|scim|static|inbound|dev)(\/|$)/

/** The hashed scripts and styles the app's page loads, read from the page itself. */
async function shellAssets() {
  try {
    const response = await fetch('/sign-in', { credentials: 'omit', cache: 'no-store' })
    if (!response.ok) return []
    const html = await response.text()
    return [...new Set(html.match(/\/assets\/[\w.-]+\.(?:js|css|woff2)/g) || [])]
  } catch {
    return []
  }
}

self.addEventListener('install', (event) => {
  event.waitUntil(
    (async () => {
      const cache = await caches.open(CACHE)
      await cache.addAll(SHELL)
      const assets = await shellAssets()
      await Promise.all(assets.map((url) => cache.add(url).catch(() => undefined)))
      await self.skipWaiting()
    })(),
  )
})

self.addEventListener('activate', (event) => {
  event.waitUntil(
    (async () => {
      const names = await caches.keys()
      await Promise.all(
        names.filter((name) => name.startsWith('concierge-') && name !== CACHE).map((name) => caches.delete(name)),
      )
      await self.clients.claim()
    })(),
  )
})

async function fromCacheOrNetwork(request) {
  const cache = await caches.open(CACHE)
  const cached = await cache.match(request)
  if (cached) return cached
  const response = await fetch(request)
  if (response.ok && response.type === 'basic') await cache.put(request, response.clone())
  return response
}

async function pageOrOffline(request) {
  try {
    return await fetch(request)
  } catch (error) {
    const offline = await caches.match(OFFLINE_URL)
    if (offline) return offline
    throw error
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event
  if (request.method !== 'GET') return
  const url = new URL(request.url)
  if (url.origin !== self.location.origin || NEVER_CACHED.test(url.pathname)) return
  if (request.mode === 'navigate') {
    event.respondWith(pageOrOffline(request))
  } else if (url.pathname.startsWith('/assets/') || SHELL.includes(url.pathname)) {
    event.respondWith(fromCacheOrNetwork(request))
  }
})

self.addEventListener('push', (event) => {
  let message = {}
  try {
    message = event.data ? event.data.json() : {}
  } catch {
    message = {}
  }
  const title = message.title || 'Concierge'
  event.waitUntil(
    self.registration.showNotification(title, {
      body: message.body || '',
      tag: message.tag || undefined,
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: message.url || '/' },
    }),
  )
})

/** Opens a notification's page: an open window of the app goes there, else a new one. */
async function openFromNotification(notification) {
  const path = (notification.data && notification.data.url) || '/'
  const target = new URL(path, self.location.origin)
  if (target.origin !== self.location.origin) return null
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true })
  const same = windows.find((client) => client.url === target.href)
  if (same) return same.focus()
  const open = windows.find((client) => 'navigate' in client && client.url.startsWith(self.location.origin))
  if (open) {
    const navigated = await open.navigate(target.href).catch(() => null)
    if (navigated) {
      await navigated.focus().catch(() => undefined)
      return navigated
    }
  }
  return self.clients.openWindow(target.href)
}
self.openFromNotification = openFromNotification

self.addEventListener('notificationclick', (event) => {
  event.notification.close()
  event.waitUntil(openFromNotification(event.notification))
})
