import { Eye, EyeOff } from 'lucide-react'
import {
  type ChangeEvent,
  type ChangeEventHandler,
  type FocusEventHandler,
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  type Ref,
  type TextareaHTMLAttributes,
  useState,
} from 'react'
import {
  controlClassName,
  describedBy,
  FieldDescription,
  FieldErrorMessage,
  FieldLabel,
  useFieldIds,
} from '../field'
import { cx, focusRing } from '../utils'

export type TextInputType =
  | 'date'
  | 'email'
  | 'number'
  | 'password'
  | 'search'
  | 'tel'
  | 'text'
  | 'textarea'
  | 'url'

export type TextInputElement = HTMLInputElement | HTMLTextAreaElement

export interface TextInputProps
  extends Omit<
    InputHTMLAttributes<HTMLInputElement>,
    | 'type'
    | 'onChange'
    | 'onBlur'
    | 'onFocus'
    | 'size'
    | 'children'
    | 'value'
    | 'defaultValue'
    | 'required'
  > {
  /** Visible label. Non-required fields get ' (optional)' appended. */
  label: ReactNode
  name: string
  /** Default 'text'. 'textarea' renders a <textarea>; 'number' renders a text input with a numeric keyboard. */
  type?: TextInputType
  /** Marks the field required (aria-required). Default false → label shows '(optional)'. */
  required?: boolean
  /** Error message shown under the field; marks it aria-invalid. */
  error?: string | null
  /** Help text under the label. */
  description?: ReactNode
  /** Keep the label for screen readers only. */
  hideLabel?: boolean
  /** Rows for textarea. Default 4. */
  rows?: number
  value?: string | number
  defaultValue?: string | number
  onChange?: ChangeEventHandler<TextInputElement>
  onBlur?: FocusEventHandler<TextInputElement>
  onFocus?: FocusEventHandler<TextInputElement>
  /**
   * Called with the new value on every change. For type 'number' the value is converted:
   * a finite number, or null when empty or not a number.
   */
  onValueChange?: (value: string | number | null) => void
  /** Classes for the outer wrapper. */
  className?: string
  /** Classes for the <input>/<textarea>. */
  inputClassName?: string
}

/** Converts the text of a 'number' field: finite number, or null when empty or not a number. */
export function toNumberOrNull(text: string): number | null {
  const cleaned = text.trim().replace(/,/g, '')
  if (cleaned === '') return null
  const n = Number(cleaned)
  return Number.isFinite(n) ? n : null
}

/**
 * A labelled text field (input or textarea) with optional '(optional)' marker and error message.
 * Forwards its ref and spreads the rest props, so a form's `{...field('email')}` (useSchemaForm)
 * works: name, default value and onChange, the element holding the value.
 */
export const TextInput = forwardRef<TextInputElement, TextInputProps>(function TextInput(
  {
    label,
    name,
    type = 'text',
    required = false,
    error,
    description,
    hideLabel = false,
    rows = 4,
    id,
    className,
    inputClassName,
    onChange,
    onValueChange,
    'aria-describedby': ariaDescribedBy,
    ...rest
  },
  ref,
) {
  const ids = useFieldIds(id)
  const [revealed, setRevealed] = useState(false)
  const invalid = Boolean(error)

  const handleChange = (event: ChangeEvent<TextInputElement>) => {
    onChange?.(event)
    if (onValueChange) {
      const text = event.target.value
      onValueChange(type === 'number' ? toNumberOrNull(text) : text)
    }
  }

  const common = {
    id: ids.inputId,
    name,
    'aria-invalid': invalid || undefined,
    'aria-required': required || undefined,
    'aria-describedby': describedBy(
      description ? ids.descriptionId : null,
      invalid ? ids.errorId : null,
      ariaDescribedBy,
    ),
    onChange: handleChange,
  }

  let control: ReactNode
  if (type === 'textarea') {
    control = (
      <textarea
        {...(rest as TextareaHTMLAttributes<HTMLTextAreaElement>)}
        {...common}
        ref={ref as Ref<HTMLTextAreaElement>}
        rows={rows}
        className={controlClassName(invalid, cx('min-h-28 resize-y', inputClassName))}
      />
    )
  } else {
    const isPassword = type === 'password'
    const htmlType = type === 'number' ? 'text' : isPassword && revealed ? 'text' : type
    control = (
      <div className="relative">
        <input
          {...rest}
          {...common}
          ref={ref as Ref<HTMLInputElement>}
          type={htmlType}
          inputMode={type === 'number' ? 'numeric' : rest.inputMode}
          className={controlClassName(invalid, cx(isPassword && 'pe-12', inputClassName))}
        />
        {isPassword ? (
          <button
            type="button"
            aria-label="Show password"
            aria-pressed={revealed}
            aria-controls={ids.inputId}
            onClick={() => setRevealed((r) => !r)}
            disabled={rest.disabled}
            className={cx(
              'absolute inset-y-0 end-0 my-auto me-1 inline-flex size-9 items-center justify-center rounded-md text-ink-muted hover:text-ink',
              focusRing,
            )}
          >
            {revealed ? (
              <EyeOff aria-hidden="true" className="size-5" />
            ) : (
              <Eye aria-hidden="true" className="size-5" />
            )}
          </button>
        ) : null}
      </div>
    )
  }

  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <FieldLabel htmlFor={ids.inputId} id={ids.labelId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
      {description ? (
        <FieldDescription id={ids.descriptionId}>{description}</FieldDescription>
      ) : null}
      {control}
      {invalid ? <FieldErrorMessage id={ids.errorId}>{error}</FieldErrorMessage> : null}
    </div>
  )
})
