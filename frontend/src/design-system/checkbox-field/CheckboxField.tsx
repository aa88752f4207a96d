import type { ReactNode } from 'react'
import { describedBy, FieldDescription, useFieldIds } from '../field'
import { cx, focusRing } from '../utils'

/** A checkbox with its label and an optional hint, on the design system's field pieces. */
export function CheckboxField({
  label,
  hint,
  name,
  checked,
  disabled = false,
  onChange,
}: {
  label: ReactNode
  hint?: ReactNode
  name?: string
  checked: boolean
  disabled?: boolean
  onChange: (checked: boolean) => void
}) {
  const { inputId, descriptionId } = useFieldIds()
  return (
    <div className="flex items-start gap-3">
      <input
        id={inputId}
        type="checkbox"
        name={name}
        checked={checked}
        disabled={disabled}
        aria-describedby={describedBy(hint ? descriptionId : null)}
        onChange={(event) => onChange(event.target.checked)}
        className={cx('mt-0.5 size-5 shrink-0 accent-primary-600 disabled:opacity-60', focusRing)}
      />
      <div className="flex min-w-0 flex-col gap-0.5">
        <label htmlFor={inputId} className="text-sm font-semibold text-ink">
          {label}
        </label>
        {hint ? <FieldDescription id={descriptionId}>{hint}</FieldDescription> : null}
      </div>
    </div>
  )
}
