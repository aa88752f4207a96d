import { RotateCcw } from 'lucide-react'
import { Button, Paragraph } from '@/design-system'

/** A list that failed to load, with a retry. */
export function OfferingsError({ message, onRetry }: { message: string; onRetry: () => void }) {
  return (
    <div
      role="alert"
      className="flex flex-col items-start gap-3 rounded-2xl border border-line bg-surface p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <Paragraph tone="muted">{message}</Paragraph>
      <Button variant="secondary" size="sm" icon={<RotateCcw />} onClick={onRetry}>
        Try again
      </Button>
    </div>
  )
}
