import { vi } from 'vitest'

export const ENDPOINT = 'https://fcm.googleapis.com/fcm/send/this-browser'

/** A browser that can get push: a service worker, PushManager and Notification, all fakes. */
export function fakePushBrowser({
  permission = 'default' as NotificationPermission,
  subscribed = false,
  grant = 'granted' as NotificationPermission,
} = {}) {
  const subscription = {
    endpoint: ENDPOINT,
    toJSON: () => ({ endpoint: ENDPOINT, keys: { p256dh: 'browser-key', auth: 'browser-auth' } }),
    unsubscribe: vi.fn(async () => {
      current = null
      return true
    }),
  }
  let current: typeof subscription | null = subscribed ? subscription : null
  const pushManager = {
    getSubscription: vi.fn(async () => current),
    subscribe: vi.fn(async () => {
      current = subscription
      return subscription
    }),
  }
  const registration = { pushManager }
  Object.defineProperty(navigator, 'serviceWorker', {
    configurable: true,
    value: { register: vi.fn(async () => registration), ready: Promise.resolve(registration) },
  })
  // As a browser does, the answer to the permission prompt becomes the permission.
  const notification = {
    permission,
    requestPermission: vi.fn(async () => {
      notification.permission = grant
      return grant
    }),
  }
  Object.defineProperty(window, 'PushManager', {
    configurable: true,
    value: function PushManager() {},
  })
  Object.defineProperty(window, 'Notification', { configurable: true, value: notification })
  return { pushManager, notification, subscription }
}

export function removeFakePushBrowser() {
  for (const [target, name] of [
    [navigator, 'serviceWorker'],
    [window, 'PushManager'],
    [window, 'Notification'],
  ] as const) {
    Reflect.deleteProperty(target, name)
  }
}
