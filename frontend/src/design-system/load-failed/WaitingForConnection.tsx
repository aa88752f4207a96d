import { WifiOff } from 'lucide-react'
import { Heading, type HeadingLevel } from '../heading'
import { Paragraph } from '../text'

export const OFFLINE_TITLE = 'You’re offline'

export interface WaitingForConnectionProps {
  /** What will load once the browser is back online, and that it will. */
  message: string
  /** The heading's level in the page's outline (2 unless it stands for the whole page). */
  headingLevel?: HeadingLevel
  /** One line in a page's section (the Dashboard's latest request) instead of a panel. */
  compact?: boolean
}

/**
 * A first load that waits for the connection (TanStack Query pauses it while the browser is
 * offline, so it neither fails nor ends): said as a status in place of a skeleton that would
 * never stop. The load goes on by itself once the browser is back online.
 */
export function WaitingForConnection({
  message,
  headingLevel = 2,
  compact = false,
}: WaitingForConnectionProps) {
  if (compact) {
    return (
      <p role="status" className="flex items-center gap-2 text-sm font-medium text-ink-muted">
        <WifiOff aria-hidden="true" className="size-4 shrink-0" />
        {OFFLINE_TITLE}. {message}
      </p>
    )
  }
  return (
    <section
      role="status"
      className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center sm:py-16"
    >
      <span className="inline-flex size-14 items-center justify-center rounded-full bg-neutral-100 text-ink-muted">
        <WifiOff aria-hidden="true" className="size-7" />
      </span>
      <Heading level={headingLevel} size={headingLevel === 1 ? 'lg' : undefined}>
        {OFFLINE_TITLE}
      </Heading>
      <Paragraph tone="muted" className="max-w-md">
        {message}
      </Paragraph>
    </section>
  )
}
