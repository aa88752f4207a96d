/**
 * Loaded after the page has loaded, never in the first load: registers the service worker and,
 * when this browser already gets push, saves its subscription again. Pushes reach a device only
 * while the session that saved it is signed in, so each start binds it to the current one (after
 * a sign-out and a new sign-in, possibly by someone else, the device follows who is signed in).
 */
import { deviceSave } from './api'
import { currentSubscription, pushSupported, registerServiceWorker } from './push'

async function start(): Promise<void> {
  await registerServiceWorker()
  if (!pushSupported() || Notification.permission !== 'granted') return
  const subscription = await currentSubscription().catch(() => null)
  if (subscription) await deviceSave(subscription.toJSON()).catch(() => undefined)
}

export function registerWhenLoaded() {
  if (document.readyState === 'complete') void start()
  else window.addEventListener('load', () => void start(), { once: true })
}
