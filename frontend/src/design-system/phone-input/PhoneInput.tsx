import {
  type ChangeEvent,
  type ChangeEventHandler,
  forwardRef,
  type InputHTMLAttributes,
  type ReactNode,
  useRef,
} from 'react'
import {
  controlClassName,
  describedBy,
  FieldDescription,
  FieldErrorMessage,
  FieldLabel,
  useFieldIds,
} from '../field'
import { cx } from '../utils'
import {
  applyMask,
  caretAfterSlot,
  DEFAULT_PHONE_MASK,
  DEFAULT_PLACEHOLDER_CHAR,
  filledSlots,
  maskPlaceholder,
  slotCount,
  unmask,
} from './mask'

export interface PhoneInputProps
  extends Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'type' | 'value' | 'defaultValue' | 'onChange' | 'size' | 'children' | 'required'
  > {
  label: ReactNode
  name: string
  /** '9' digit, 'a' letter, '*' letter or digit; anything else is literal. Default '(999) 999-9999'. */
  mask?: string
  /** Shown in unfilled slots. Default '_'. */
  placeholderChar?: string
  required?: boolean
  error?: string | null
  description?: ReactNode
  hideLabel?: boolean
  /** Controlled value (masked or raw; it is shown masked). Leave undefined for uncontrolled use (`field`). */
  value?: string
  defaultValue?: string
  /** Receives the change event; `event.target.value` is already the masked string. */
  onChange?: ChangeEventHandler<HTMLInputElement>
  /** Receives the raw characters (digits for a phone mask) and the masked string. */
  onValueChange?: (raw: string, masked: string) => void
  className?: string
  inputClassName?: string
}

/**
 * A masked text input (phone numbers by default). Formats as the user types and keeps the caret
 * in place. Works uncontrolled (a form's `{...field('phone')}`, the element holding the masked
 * string) and controlled (`value`, with `onValueChange` or `onChange`; useSchemaForm's
 * `controlledField` keeps the digits that `onValueChange` reports).
 */
export const PhoneInput = forwardRef<HTMLInputElement, PhoneInputProps>(function PhoneInput(
  {
    label,
    name,
    mask = DEFAULT_PHONE_MASK,
    placeholderChar = DEFAULT_PLACEHOLDER_CHAR,
    required = false,
    error,
    description,
    hideLabel = false,
    value,
    defaultValue,
    onChange,
    onValueChange,
    placeholder,
    id,
    className,
    inputClassName,
    'aria-describedby': ariaDescribedBy,
    ...rest
  },
  ref,
) {
  const ids = useFieldIds(id)
  // Last value we rendered, to tell "only a literal was deleted" from a real edit.
  const previous = useRef<string>(applyMask(mask, value ?? defaultValue ?? '', placeholderChar))
  const invalid = Boolean(error)
  const digitsOnly = [...mask].every((ch) => ch !== 'a' && ch !== '*')

  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.target
    const typed = input.value
    const caret = input.selectionStart ?? typed.length
    const inputType = (event.nativeEvent as InputEvent | undefined)?.inputType ?? ''

    let masked = applyMask(mask, typed, placeholderChar)
    let filledBeforeCaret = filledSlots(mask, typed.slice(0, caret), placeholderChar)
    if (mask === DEFAULT_PHONE_MASK && /^\D*1/.test(typed)) {
      // No US area code starts with 1: a leading 1 is the country code ('+1 415 555 0134',
      // typed or filled in), not the number's first digit.
      masked = applyMask(mask, typed.replace(/^\D*1/, ''), placeholderChar)
      filledBeforeCaret = Math.max(0, filledBeforeCaret - 1)
    }

    const before = unmask(mask, previous.current, placeholderChar)
    const after = unmask(mask, masked, placeholderChar)
    if (inputType.startsWith('delete') && before === after && before.length > 0) {
      // Only a literal ('(', ')', ' ', '-') was deleted: delete the neighbouring typed character instead.
      const index = inputType === 'deleteContentForward' ? filledBeforeCaret : filledBeforeCaret - 1
      if (index >= 0 && index < before.length) {
        const raw = before.slice(0, index) + before.slice(index + 1)
        masked = applyMask(mask, raw, placeholderChar)
        filledBeforeCaret = index
      }
    } else if (digitsOnly && inputType === 'insertFromPaste') {
      // A pasted '+1 555 123 4567' keeps the last digits that fit.
      const digits = typed.replace(/\D/g, '')
      const slots = slotCount(mask)
      if (digits.length > slots) {
        masked = applyMask(mask, digits.slice(-slots), placeholderChar)
        filledBeforeCaret = slots
      }
    }

    input.value = masked
    previous.current = masked
    if (masked && document.activeElement === input) {
      const pos = Math.min(caretAfterSlot(mask, filledBeforeCaret), masked.length)
      input.setSelectionRange(pos, pos)
    }
    onChange?.(event)
    onValueChange?.(unmask(mask, masked, placeholderChar), masked)
  }

  const controlled = value !== undefined
  if (controlled) previous.current = applyMask(mask, value ?? '', placeholderChar)

  return (
    <div className={cx('flex flex-col gap-1.5', className)}>
      <FieldLabel htmlFor={ids.inputId} id={ids.labelId} required={required} hidden={hideLabel}>
        {label}
      </FieldLabel>
      {description ? (
        <FieldDescription id={ids.descriptionId}>{description}</FieldDescription>
      ) : null}
      <input
        autoComplete={digitsOnly ? 'tel-national' : 'off'}
        {...rest}
        ref={ref}
        id={ids.inputId}
        name={name}
        type={digitsOnly ? 'tel' : 'text'}
        inputMode={digitsOnly ? 'tel' : 'text'}
        placeholder={placeholder ?? maskPlaceholder(mask, placeholderChar)}
        {...(controlled
          ? { value: applyMask(mask, value ?? '', placeholderChar) }
          : { defaultValue: applyMask(mask, defaultValue ?? '', placeholderChar) })}
        onChange={handleChange}
        aria-invalid={invalid || undefined}
        aria-required={required || undefined}
        aria-describedby={describedBy(
          description ? ids.descriptionId : null,
          invalid ? ids.errorId : null,
          ariaDescribedBy,
        )}
        className={controlClassName(invalid, cx('tabular-nums', inputClassName))}
      />
      {invalid ? <FieldErrorMessage id={ids.errorId}>{error}</FieldErrorMessage> : null}
    </div>
  )
})
