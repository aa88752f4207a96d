import { CircleAlert } from 'lucide-react'
import { type ReactNode, useId } from 'react'
import { cx } from '../utils'

/** Ids that tie a label, a description and an error message to one control. */
export function useFieldIds(id?: string) {
  const generated = useId()
  const inputId = id ?? `field-${generated}`
  return {
    inputId,
    labelId: `${inputId}-label`,
    descriptionId: `${inputId}-description`,
    errorId: `${inputId}-error`,
  }
}

/** Joins aria-describedby ids, skipping empty ones. */
export function describedBy(...ids: Array<string | false | null | undefined>): string | undefined {
  const list = ids.filter(Boolean).join(' ')
  return list || undefined
}

export interface FieldLabelProps {
  htmlFor?: string
  id?: string
  children: ReactNode
  /** Non-required fields get ' (optional)' appended (spec §5). */
  required?: boolean
  hidden?: boolean
  className?: string
}

export function FieldLabel({
  htmlFor,
  id,
  children,
  required = false,
  hidden = false,
  className,
}: FieldLabelProps) {
  return (
    <label
      htmlFor={htmlFor}
      id={id}
      className={cx(hidden ? 'sr-only' : 'block text-sm font-semibold text-ink', className)}
    >
      {children}
      {required ? null : (
        <>
          {' '}
          <span className="font-normal text-ink-muted">(optional)</span>
        </>
      )}
    </label>
  )
}

export function FieldDescription({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="text-sm text-ink-muted">
      {children}
    </p>
  )
}

export function FieldErrorMessage({ id, children }: { id: string; children: ReactNode }) {
  return (
    <p id={id} className="flex items-start gap-1.5 text-sm font-medium text-danger-700">
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{children}</span>
    </p>
  )
}

/** Shared look of text-like controls (input, textarea, masked phone input). */
export function controlClassName(invalid: boolean, className?: string) {
  return cx(
    'block w-full min-h-11 rounded-lg border bg-surface px-3.5 py-2.5 text-base text-ink shadow-xs',
    'placeholder:text-neutral-500 transition-colors motion-reduce:transition-none',
    'focus-visible:outline-solid focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-focus',
    'disabled:cursor-not-allowed disabled:bg-neutral-100 disabled:text-neutral-500',
    'read-only:bg-neutral-50',
    invalid
      ? 'border-danger-600 focus-visible:outline-danger-600'
      : 'border-neutral-300 hover:border-neutral-400',
    className,
  )
}
