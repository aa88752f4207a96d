import { CircleAlert, RotateCcw } from 'lucide-react'
import { Button } from '../button'
import { cx } from '../utils'

export interface RetryAlertProps {
  /** What failed, in one sentence. */
  message: string
  /** Tries again; without it the alert has no Retry button. */
  onRetry?: () => void
  /** The smaller box of a drawer or a form. */
  compact?: boolean
  id?: string
}

/** Something that failed to load or to go through, announced as an alert, with Retry. */
export function RetryAlert({ message, onRetry, compact = false, id }: RetryAlertProps) {
  return (
    <div
      id={id}
      role="alert"
      className={cx(
        'flex flex-wrap items-center gap-3 border border-danger-200 bg-danger-50 text-sm font-medium text-danger-800',
        compact ? 'rounded-xl p-3' : 'rounded-2xl p-4',
      )}
    >
      <CircleAlert aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0 flex-1">{message}</span>
      {onRetry ? (
        <Button size="sm" variant="secondary" icon={<RotateCcw />} onClick={onRetry}>
          Retry
        </Button>
      ) : null}
    </div>
  )
}
