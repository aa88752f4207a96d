import { useQuery } from '@tanstack/react-query'
import { formatLongDate } from '@/lib/format'
import { requestRetentionQuery } from './api'

/** On a completed request: when the company's retention window will erase its messages, or
 * that it did. Nothing when no window applies. */
export function RetentionNotice({ requestId }: { requestId: number }) {
  const retention = useQuery(requestRetentionQuery(requestId))
  const data = retention.data
  if (!data) return null
  if (data.erased) {
    return (
      <p className="text-center text-sm text-ink-muted">
        This request's messages were erased, as your employer's retention policy asks.
      </p>
    )
  }
  if (!data.erase_on) return null
  // A calendar date: read at local noon so that no time zone moves it to another day.
  return (
    <p className="text-center text-sm text-ink-muted">
      This request's messages will be erased on {formatLongDate(`${data.erase_on}T12:00:00`)}.
    </p>
  )
}
