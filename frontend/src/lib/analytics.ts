/**
 * Page-view analytics, only when an analytics id is configured. Paths that carry tokens or ids
 * are anonymised before they leave the browser (spec §2 route table, §8).
 */
import { config } from './config'

const ANONYMISED: Array<[RegExp, string]> = [
  [/^\/reset-password\/[^/]+/, '/reset-password/:resetToken'],
  [/^\/unlock\/[^/]+/, '/unlock/:unlockToken'],
  [/^\/verify-email\/[^/]+/, '/verify-email/:verificationToken'],
  [/^\/requests\/category\/[^/]+/, '/requests/category/:categoryId'],
  [/^\/requests\/(?!category\/)[^/]+/, '/requests/:requestId'],
  [/^\/attachments\/.+/, '/attachments/:fileKey'],
]

export function anonymisePath(path: string): string {
  for (const [pattern, replacement] of ANONYMISED) {
    if (pattern.test(path)) return path.replace(pattern, replacement)
  }
  return path
}

declare global {
  interface Window {
    dataLayer?: unknown[]
  }
}

export function trackPageView(path: string, title: string) {
  if (!config.analyticsId || !config.reportAnalytics) return
  window.dataLayer = window.dataLayer ?? []
  window.dataLayer.push({
    event: 'page_view',
    analytics_id: config.analyticsId,
    page_path: anonymisePath(path),
    page_title: title,
  })
}

export function resetAnalyticsIdentity() {
  if (window.dataLayer) window.dataLayer.push({ event: 'reset_identity' })
}
