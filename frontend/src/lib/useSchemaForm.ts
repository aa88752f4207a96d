/**
 * The web app's forms, over a validation schema (src/lib/validation.ts). Text fields stay
 * uncontrolled (`field`: the form's elements hold their values); a component that is not a
 * plain input gets its value from the form (`controlledField`, e.g. the phone input). A form is
 * checked on submit, then each field again as it changes; the first invalid field in the form
 * (by its `name`) takes the focus; the submit handler receives the schema's values (trimmed
 * where its rules say so). `setError` puts a message (the server's) on a field until the field
 * changes, `showServerErrors` several, focusing the first; `watch()` reads the current values while rendering, for a form that reacts to them.
 */
import { type ChangeEvent, type FormEvent, useRef, useState } from 'react'
import type { FieldMessages, Schema } from '@/lib/validation'

type FieldElement = HTMLInputElement | HTMLTextAreaElement

/** A text field's props: `<TextInput {...field('email')} />`. */
export interface SchemaFieldProps {
  name: string
  defaultValue?: string
  onChange: (event: ChangeEvent<FieldElement>) => void
}

/** A controlled field's props: its value and the new value as it changes. */
export interface ControlledFieldProps {
  name: string
  value: string
  onChange: (value: string) => void
}

/**
 * A form over `validate` that submits its values to `onValid`; `defaults` are the fields' first
 * values.
 */
export function useSchemaForm<T extends Record<string, string>>(
  validate: Schema<T>,
  onValid: (values: T) => Promise<void> | void,
  defaults: Partial<T> = {},
) {
  type Name = keyof T & string
  // The form once submitted: from then on each field is checked again as it changes.
  const form = useRef<HTMLFormElement>(undefined)
  const controlled = useRef(new Set<string>()).current
  const watched = useRef(false)
  // The defaults and the controlled fields' values; the text fields' too once watched.
  const [held, setHeld] = useState(defaults)
  const [errors, setErrors] = useState<FieldMessages<T>>({})
  const [submitting, setSubmitting] = useState(false)

  /** The values: the held ones, the text fields' as typed, then `changed`. */
  const current = (changed?: Partial<T>) => {
    const typed = [...new FormData(form.current)].filter(([name]) => !controlled.has(name))
    return { ...held, ...Object.fromEntries(typed), ...changed } as T
  }

  /** Shows a field's message (none: undefined). */
  const setError = (name: Name, message: string | undefined) =>
    setErrors((shown) => ({ ...shown, [name]: message }))

  /** The server's messages on their fields; the first of them in the form takes the focus,
   * which the busy submit button held. */
  const showServerErrors = (messages: ReadonlyArray<readonly [Name, string]>): void => {
    setErrors((shown) => ({ ...shown, ...Object.fromEntries(messages) }))
    const names = messages.map(([name]) => name as string)
    const elements = [...(form.current?.elements ?? [])] as FieldElement[]
    elements.find((element) => names.includes(element.name))?.focus()
  }

  const change = (name: Name, value: string, hold: boolean) => {
    const changed = { [name]: value } as Partial<T>
    if (hold) setHeld((values) => ({ ...values, ...changed }))
    if (form.current) setError(name, validate(current(changed)).errors[name])
  }

  const field = (name: Name): SchemaFieldProps => ({
    name,
    defaultValue: held[name],
    onChange: (event) => change(name, event.target.value, watched.current),
  })

  const controlledField = (name: Name): ControlledFieldProps => {
    controlled.add(name)
    return { name, value: held[name] ?? '', onChange: (value) => change(name, value, true) }
  }

  /** The current values; the form renders again as they change from then on. */
  const watch = (): Partial<T> => {
    watched.current = true
    return held
  }

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    form.current = event.currentTarget
    const result = validate(current())
    setErrors(result.errors)
    const elements = [...form.current.elements] as FieldElement[]
    const invalid = elements.find((element) => result.errors[element.name as Name])
    if (invalid) return invalid.focus()
    setSubmitting(true)
    try {
      await onValid(result.values)
    } finally {
      setSubmitting(false)
    }
  }

  return {
    field,
    controlledField,
    watch,
    errors,
    setError,
    showServerErrors,
    submitting,
    onSubmit,
  }
}
