/**
 * Build-time configuration (spec §5): validated once at start. When it is invalid the app
 * refuses to start and logs the spec's message.
 */
export const CONFIG_ERROR_MESSAGE = 'ENVIRONMENT VARIABLES DO NOT MEET MINIMUM REQUIREMENTS'

export interface AppConfig {
  apiBaseUrl: string
  productName: string
  supportEmail: string
  analyticsId?: string
  /** The analytics tag (Google's gtag.js unless VITE_ANALYTICS_SCRIPT_URL names another). */
  analyticsScriptUrl: string
  reportAnalytics: boolean
  reportErrors: boolean
  /** Sentry's DSN: errors are reported only when it is set and reportErrors is on. */
  errorReportingDsn?: string
}

type RawEnv = Record<string, unknown>

function isValidUrl(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'http:' || url.protocol === 'https:'
  } catch {
    return false
  }
}

function optionalString(env: RawEnv, key: string): string | undefined {
  const value = env[key]
  if (value === undefined || value === '') return undefined
  if (typeof value !== 'string') throw new Error(key)
  return value
}

/**
 * The production API is only used from the production origin: elsewhere requests go to the
 * local server, unless the development override is set (spec §7).
 */
function resolveApiBaseUrl(env: RawEnv, origin: string): string {
  const configured = optionalString(env, 'VITE_API_BASE_URL') ?? origin
  if (!isValidUrl(configured)) throw new Error('VITE_API_BASE_URL')
  const productionApi = optionalString(env, 'VITE_PRODUCTION_API_URL')
  const productionOrigin = optionalString(env, 'VITE_PRODUCTION_ORIGIN')
  const override = optionalString(env, 'VITE_API_OVERRIDE') === 'true'
  if (productionApi && configured === productionApi && productionOrigin !== origin && !override) {
    return origin
  }
  return configured.replace(/\/$/, '')
}

export const DEFAULT_ANALYTICS_SCRIPT_URL = 'https://www.googletagmanager.com/gtag/js'

function optionalUrl(env: RawEnv, key: string): string | undefined {
  const value = optionalString(env, key)
  if (value !== undefined && !isValidUrl(value)) throw new Error(key)
  return value
}

export function parseConfig(env: RawEnv, origin: string): AppConfig {
  return {
    apiBaseUrl: resolveApiBaseUrl(env, origin),
    productName: optionalString(env, 'VITE_PRODUCT_NAME') ?? 'Concierge',
    supportEmail: optionalString(env, 'VITE_SUPPORT_EMAIL') ?? 'support@example.com',
    analyticsId: optionalString(env, 'VITE_ANALYTICS_ID'),
    analyticsScriptUrl:
      optionalUrl(env, 'VITE_ANALYTICS_SCRIPT_URL') ?? DEFAULT_ANALYTICS_SCRIPT_URL,
    reportAnalytics: optionalString(env, 'VITE_REPORT_ANALYTICS') === 'true',
    reportErrors: optionalString(env, 'VITE_REPORT_ERRORS') === 'true',
    errorReportingDsn: optionalString(env, 'VITE_SENTRY_DSN'),
  }
}

export function loadConfig(env: RawEnv, origin: string): AppConfig | null {
  try {
    return parseConfig(env, origin)
  } catch {
    console.error(CONFIG_ERROR_MESSAGE)
    return null
  }
}

const loaded = loadConfig(import.meta.env, window.location.origin)
export const configIsValid = loaded !== null
export const config: AppConfig = loaded ?? {
  apiBaseUrl: window.location.origin,
  productName: 'Concierge',
  supportEmail: 'support@example.com',
  analyticsScriptUrl: DEFAULT_ANALYTICS_SCRIPT_URL,
  reportAnalytics: false,
  reportErrors: false,
}
