import { useQuery } from '@tanstack/react-query'
import { Clock } from 'lucide-react'
import { cx } from '@/design-system'
import { requestQuery } from '../api'

const WEEK_MS = 6 * 24 * 3600_000

/** 'Tuesday 10:00' (and the date when it is more than six days away), in the person's zone. */
export function replyByLabel(iso: string, now: number = Date.now()): string {
  const due = new Date(iso)
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'long',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }
  if (due.getTime() - now > WEEK_MS) {
    options.day = 'numeric'
    options.month = 'long'
  }
  return new Intl.DateTimeFormat(undefined, options).format(due).replace(' at ', ' ')
}

/** 'Expect a reply by Tuesday 10:00': the company's reply-time promise for the first reply,
 * from its business calendar. Nothing once the reply came or without a promise. */
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
        Expect a reply by <time dateTime={at}>{replyByLabel(at, now)}</time>
      </span>
    </p>
  )
}

/** The same line for a request known by id (the confirmation after submitting). */
export function ExpectReplyByRequest({ id, className }: { id: number; className?: string }) {
  const request = useQuery(requestQuery(id))
  return <ExpectReplyBy at={request.data?.expect_reply_by} className={className} />
}
