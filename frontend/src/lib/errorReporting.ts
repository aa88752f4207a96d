/**
 * Error reporting (spec §8): errors other than 401 go to Sentry when VITE_REPORT_ERRORS is
 * 'true' and VITE_SENTRY_DSN is set; otherwise they are logged to the console. The SDK and its
 * settings (sentry.ts) are a separate chunk, loaded only then.
 */
import { type AppConfig, config } from './config'

type Sentry = typeof import('@sentry/react')

let loading: Promise<Sentry | null> | null = null

export function errorReportingEnabled(settings: AppConfig = config): boolean {
  return settings.reportErrors && Boolean(settings.errorReportingDsn)
}

export function initErrorReporting(settings: AppConfig = config): Promise<Sentry | null> {
  if (!errorReportingEnabled(settings)) return Promise.resolve(null)
  loading ??= import('./sentry').then(({ startSentry }) => startSentry(settings))
  return loading
}

function isUnauthorized(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    (error as { status: unknown }).status === 401
  )
}

/** Sends `error` (never a 401) to the reporting service, when reporting was started. */
export function captureError(error: unknown, context?: Record<string, unknown>): boolean {
  if (!loading || isUnauthorized(error)) return false
  void loading.then((sdk) => sdk?.captureException(error, context && { extra: context }))
  return true
}

/** Reports `error` (never a 401) once reporting was started, or logs it to the console. */
export function reportError(error: unknown): void {
  if (!captureError(error) && !isUnauthorized(error)) console.error(error)
}
