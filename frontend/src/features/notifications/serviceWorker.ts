/**
 * Loaded after the page has loaded, never in the first load: registers the service worker and,
 * when this browser already gets push, saves its subscription again. Pushes reach a device only
 * while the session that saved it is signed in, so each start binds it to the current one (after
 * a sign-out and a new sign-in, possibly by someone else, the device follows who is signed in).
 * A device removed (from this browser or another) is not added back: the server refuses this
 * save, and this browser's subscription ends, so it shows notifications as off until the person
 * turns them on again here.
 */
import { DeviceNotOnFile, deviceSave } from './api'
import { currentSubscription, pushSupported, registerServiceWorker } from './push'

async function start(): Promise<void> {
  await registerServiceWorker()
  if (!pushSupported() || Notification.permission !== 'granted') return
  const subscription = await currentSubscription().catch(() => null)
  if (!subscription) return
  await deviceSave(subscription.toJSON(), { explicit: false }).catch(async (error: unknown) => {
    // Any other failure (offline, a server error) keeps the subscription for the next start.
    if (error instanceof DeviceNotOnFile) await subscription.unsubscribe().catch(() => undefined)
  })
}

export function registerWhenLoaded() {
  if (document.readyState === 'complete') void start()
  else window.addEventListener('load', () => void start(), { once: true })
}
