/** Loaded after the page has loaded, never in the first load: registers the service worker. */
import { registerServiceWorker } from './push'

export function registerWhenLoaded() {
  if (document.readyState === 'complete') void registerServiceWorker()
  else window.addEventListener('load', () => void registerServiceWorker(), { once: true })
}
