/**
 * Sentry for error reporting (spec §8), loaded only when it is turned on: 100% of traces, 10%
 * of session replays, 100% of replays on error; recordings mask text and inputs.
 */
import * as Sentry from '@sentry/react'
import { anonymisedPath } from './anonymisedPath'
import type { AppConfig } from './config'

type SentryEvent = { request?: { url?: string; headers?: unknown; cookies?: unknown } }

function scrub<T extends SentryEvent>(event: T): T {
  if (event.request) {
    const url = event.request.url ? new URL(event.request.url, 'http://x') : null
    event.request = { url: url ? anonymisedPath(url.pathname) : undefined }
  }
  return event
}

export function startSentry(settings: AppConfig): typeof Sentry {
  Sentry.init({
    dsn: settings.errorReportingDsn,
    // No user, cookies, headers, bodies or query strings: they carry tokens and messages.
    dataCollection: {
      userInfo: false,
      cookies: false,
      httpHeaders: false,
      httpBodies: [],
      urlQueryParams: false,
    },
    integrations: [
      Sentry.browserTracingIntegration(),
      Sentry.replayIntegration({ maskAllText: true, maskAllInputs: true, blockAllMedia: true }),
    ],
    tracesSampleRate: 1.0,
    replaysSessionSampleRate: 0.1,
    replaysOnErrorSampleRate: 1.0,
    beforeSend: scrub,
    beforeSendTransaction: scrub,
    beforeBreadcrumb: (crumb) => (crumb.category === 'console' ? null : crumb),
  })
  return Sentry
}
