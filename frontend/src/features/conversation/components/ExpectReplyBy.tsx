import { useQuery } from '@tanstack/react-query'
import { Clock } from 'lucide-react'
import { cx } from '@/design-system'
import { formatWhen } from '@/lib/format'
import { requestQuery } from '../api'

/** 'Expect a reply by today 4:00 PM' ('tomorrow 9:00 AM', 'Mon, Nov 30, 9:00 AM'): the
 * company's reply-time promise for the first reply, from its business calendar, in the
 * person's time zone. Nothing once the reply came or without a promise. */
export function ExpectReplyBy({
  at,
  now,
  className,
}: {
  at: string | null | undefined
  now?: number
  className?: string
}) {
  if (!at) return null
  return (
    <p className={cx('inline-flex items-center gap-1.5 text-sm text-ink', className)}>
      <Clock aria-hidden="true" className="size-4 shrink-0 text-primary-600" />
      <span>
        Expect a reply by{' '}
        <time dateTime={at} className="whitespace-nowrap">
          {formatWhen(at, { now })}
        </time>
      </span>
    </p>
  )
}

/** The same line for a request known by id (the confirmation after submitting). */
export function ExpectReplyByRequest({ id, className }: { id: number; className?: string }) {
  const request = useQuery(requestQuery(id))
  return <ExpectReplyBy at={request.data?.expect_reply_by} className={className} />
}
