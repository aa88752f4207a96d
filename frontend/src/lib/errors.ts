import { FALLBACK_ERROR } from '@/api/client'

/** An unexpected failure (network, thrown 'Sign in error'): logged, shown as the fallback. */
export function unexpectedError(error: unknown): string {
  console.error(error)
  return FALLBACK_ERROR
}

/** The first server message for a field, if any. */
export function firstError(errors: Record<string, string[]> | undefined, key: string) {
  return errors?.[key]?.[0]
}
