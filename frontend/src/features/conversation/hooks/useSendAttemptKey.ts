import { useCallback, useRef } from 'react'
import { newIdempotencyKey } from '../api'

/**
 * One Idempotency-Key per send attempt: the same message (text and attachments) sent again after
 * a failure reuses its key, so the server stores it once; anything different gets a new key.
 */
export function useSendAttemptKey() {
  const attempt = useRef<{ signature: string; key: string } | null>(null)
  const keyFor = useCallback((body: string, attachmentKeys: string[]): string => {
    const signature = JSON.stringify([body, attachmentKeys])
    if (attempt.current?.signature !== signature) {
      attempt.current = { signature, key: newIdempotencyKey() }
    }
    return attempt.current.key
  }, [])
  const clear = useCallback(() => {
    attempt.current = null
  }, [])
  return { keyFor, clear }
}
