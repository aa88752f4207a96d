import { ChevronDown } from 'lucide-react'
import { useId } from 'react'
import { controlClassName } from '../field'
import { cx } from '../utils'

export interface SelectFieldOption {
  value: string
  label: string
}

export interface SelectFieldProps {
  label: string
  value: string
  options: SelectFieldOption[]
  onChange: (value: string) => void
  className?: string
}

/** A labelled native select in the design system's control style (dense filter bars). */
export function SelectField({ label, value, options, onChange, className }: SelectFieldProps) {
  const id = useId()
  return (
    <div className={cx('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative">
        <select
          id={id}
          value={value}
          onChange={(event) => onChange(event.target.value)}
          className={controlClassName(false, 'cursor-pointer appearance-none pe-9')}
        >
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </select>
        <ChevronDown
          aria-hidden="true"
          className="pointer-events-none absolute end-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted"
        />
      </div>
    </div>
  )
}
