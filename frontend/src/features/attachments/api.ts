/**
 * The Attachment route's call (spec §7 Uploads): GET /api/v1/uploads/expiring_url?key=...
 * returns `expiring_url`, a short-lived download address. The path is not in the generated
 * schema yet, so the typed client is called through a narrow untyped view of it; it still
 * sends the authorization and mfa-token headers and handles 401 like every other call.
 */
import { api, errorMessage } from '@/api/client'

export const EXPIRING_URL_FALLBACK = 'The link may have expired or the file is no longer available.'

interface ExpiringUrlBody {
  expiring_url?: string
}

type UntypedGet = (
  path: string,
  init: { params: { query: Record<string, string> } },
) => Promise<{ data?: ExpiringUrlBody; error?: unknown; response: Response }>

export async function fetchExpiringUrl(key: string): Promise<string> {
  const get = api.GET as unknown as UntypedGet
  const { data, error, response } = await get('/api/v1/uploads/expiring_url', {
    params: { query: { key } },
  })
  if (!response.ok || !data?.expiring_url) {
    throw new Error(errorMessage(error, undefined, EXPIRING_URL_FALLBACK))
  }
  return data.expiring_url
}
