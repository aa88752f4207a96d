/**
 * Page-view analytics (spec §2 route table, §4, §8), only when an analytics id is configured and
 * VITE_REPORT_ANALYTICS is 'true'. This is the small part every screen loads: the tag itself and
 * everything it is told live in a separate chunk (`./analyticsTag`), fetched on the first call.
 */
import { config } from './config'

type Tag = typeof import('./analyticsTag')

export const analyticsEnabled = Boolean(config.analyticsId && config.reportAnalytics)

let tag: Promise<Tag> | undefined

/** Runs `use` on the loaded tag module, in call order; nothing at all when disabled. */
function withTag(use: (module: Tag) => void) {
  if (!analyticsEnabled) return
  tag ??= import('./analyticsTag')
  tag.then(use).catch((error: unknown) => console.error('Analytics unavailable', error))
}

/** One page view: the path is anonymised before it leaves the browser. */
export function trackPageView(path: string, title: string) {
  withTag((module) => module.pageView(path, title))
}

/** The signed-in user's analytics identity (their external id). */
export function setAnalyticsIdentity(userId: string) {
  withTag((module) => module.identify(userId))
}

/** Forgets the identity: on sign-out and on a forced sign-out (spec §4). */
export function resetAnalyticsIdentity() {
  withTag((module) => module.resetIdentity())
}
