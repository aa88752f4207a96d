/** The browser's side of web push: the service worker and this browser's subscription. */

export const SERVICE_WORKER_URL = '/sw.js'

export function pushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  )
}

/** Registers the service worker (the app shell cache, the offline page, push). */
export async function registerServiceWorker(): Promise<ServiceWorkerRegistration | null> {
  if (typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return null
  try {
    return await navigator.serviceWorker.register(SERVICE_WORKER_URL, { scope: '/' })
  } catch {
    return null // private windows and some browsers refuse: the app works without it
  }
}

async function registration(): Promise<ServiceWorkerRegistration | null> {
  if (!pushSupported()) return null
  return (await registerServiceWorker()) && navigator.serviceWorker.ready
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  const reg = await registration()
  return reg ? reg.pushManager.getSubscription() : null
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const base64 = base64url.replace(/-/g, '+').replace(/_/g, '/')
  const raw = atob(base64 + '='.repeat((4 - (base64.length % 4)) % 4))
  const bytes = new Uint8Array(new ArrayBuffer(raw.length))
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i)
  return bytes
}

/** Asks the browser for permission (when not yet given) and subscribes this browser. */
export async function subscribe(publicKey: string): Promise<PushSubscription> {
  const permission = await Notification.requestPermission()
  if (permission !== 'granted') throw new Error('permission')
  const reg = await registration()
  if (!reg) throw new Error('unsupported')
  const existing = await reg.pushManager.getSubscription()
  if (existing) return existing
  return reg.pushManager.subscribe({
    userVisibleOnly: true,
    applicationServerKey: keyBytes(publicKey),
  })
}

/** Ends this browser's subscription: the push service stops delivering to it, and the next
 * visit does not save it again (serviceWorker.ts saves a subscription the browser still has). */
export async function unsubscribe(): Promise<void> {
  const subscription = await currentSubscription()
  if (subscription) await subscription.unsubscribe()
}
