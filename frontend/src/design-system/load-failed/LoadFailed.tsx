import { CircleAlert, RotateCcw } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '../button'
import { Heading, type HeadingLevel } from '../heading'
import { Paragraph } from '../text'

export interface LoadFailedProps {
  /** What could not be loaded, as the heading of the place it stands in. */
  title: string
  /** Why, or what to do about it. */
  message?: string
  onRetry: () => void
  /** The heading's level in the page's outline (2 unless the failure is the whole page). */
  headingLevel?: HeadingLevel
  /** A picture in place of the warning icon (the assistant, in a drawer). */
  illustration?: ReactNode
}

/** A page or a list that failed to load, announced as an alert, with Try again (a section of a
 * page that failed says so with `RetryAlert`). */
export function LoadFailed({
  title,
  message,
  onRetry,
  headingLevel = 2,
  illustration,
}: LoadFailedProps) {
  return (
    <div role="alert" className="flex flex-col items-center gap-3 px-6 py-10 text-center">
      {illustration ?? (
        <span className="grid size-12 place-items-center rounded-full bg-danger-50 text-danger-700">
          <CircleAlert aria-hidden="true" className="size-6" />
        </span>
      )}
      <Heading level={headingLevel}>{title}</Heading>
      {message ? (
        <Paragraph tone="muted" className="max-w-sm">
          {message}
        </Paragraph>
      ) : null}
      <Button variant="secondary" icon={<RotateCcw />} onClick={onRetry} className="mt-1">
        Try again
      </Button>
    </div>
  )
}
