import { ProgressBar as AriaProgressBar, Label } from 'react-aria-components'
import { cx } from '../utils'

export interface ProgressBarProps {
  /** Visible (or screen-reader only, see `hideLabel`) label. Required for an accessible name. */
  label: string
  /** 0–100. Leave undefined (or set `indeterminate`) when the progress is unknown. */
  value?: number
  indeterminate?: boolean
  /** Keep the label for screen readers only. */
  hideLabel?: boolean
  /** Show the percentage next to the label. Default true when determinate. */
  showValue?: boolean
  /** Thickness. Default 'md'. */
  size?: 'sm' | 'md'
  className?: string
}

function clamp(value: number) {
  return Math.min(100, Math.max(0, value))
}

/** Determinate (0–100 %) or indeterminate progress bar, role="progressbar". */
export function ProgressBar({
  label,
  value,
  indeterminate,
  hideLabel = false,
  showValue,
  size = 'md',
  className,
}: ProgressBarProps) {
  const isIndeterminate = indeterminate ?? value === undefined
  const current = isIndeterminate ? undefined : clamp(value ?? 0)
  return (
    <AriaProgressBar
      value={current}
      minValue={0}
      maxValue={100}
      isIndeterminate={isIndeterminate}
      className={cx('flex w-full flex-col gap-1.5', className)}
    >
      {({ percentage, valueText }) => (
        <>
          <div className={cx('flex justify-between gap-2 text-sm', hideLabel && 'sr-only')}>
            <Label className="font-medium text-ink">{label}</Label>
            {!isIndeterminate && (showValue ?? true) ? (
              <span aria-hidden="true" className="tabular-nums text-ink-muted">
                {valueText}
              </span>
            ) : null}
          </div>
          <div
            className={cx(
              'relative w-full overflow-hidden rounded-full bg-primary-100',
              size === 'sm' ? 'h-1.5' : 'h-2.5',
            )}
          >
            {isIndeterminate ? (
              <div className="absolute inset-y-0 left-0 w-2/5 rounded-full bg-primary-600 animate-progress-indeterminate motion-reduce:w-full motion-reduce:animate-pulse" />
            ) : (
              <div
                data-testid="progress-fill"
                className="h-full rounded-full bg-primary-600 transition-[width] duration-300 ease-out motion-reduce:transition-none"
                style={{ width: `${percentage ?? 0}%` }}
              />
            )}
          </div>
        </>
      )}
    </AriaProgressBar>
  )
}
