/**
 * A small form over a validation schema (src/lib/validation.ts) for the sign-in page's forms,
 * which load before anything else: uncontrolled text fields, checked on submit and then again
 * as each one changes; the first invalid field takes the focus; the submit handler receives
 * the schema's values (trimmed where its rules say so).
 */
import { type ChangeEvent, type FormEvent, type RefCallback, useRef, useState } from 'react'
import type { FieldMessages, Schema } from '@/lib/validation'

type FieldElement = HTMLInputElement | HTMLTextAreaElement

export interface SchemaFieldProps {
  name: string
  ref: RefCallback<FieldElement>
  onChange: (event: ChangeEvent<FieldElement>) => void
}

export function useSchemaForm<T extends Record<string, string>>(
  validate: Schema<T>,
  onValid: (values: T) => Promise<void> | void,
) {
  type Name = keyof T & string
  const elements = useRef(new Map<Name, FieldElement>())
  const refs = useRef(new Map<Name, RefCallback<FieldElement>>())
  const submitted = useRef(false)
  const [errors, setErrors] = useState<FieldMessages<T>>({})
  const [submitting, setSubmitting] = useState(false)

  const values = () =>
    Object.fromEntries([...elements.current].map(([name, element]) => [name, element.value])) as T

  const refFor = (name: Name): RefCallback<FieldElement> => {
    let ref = refs.current.get(name)
    if (!ref) {
      ref = (element) => {
        if (element) elements.current.set(name, element)
        else elements.current.delete(name)
      }
      refs.current.set(name, ref)
    }
    return ref
  }

  /** Once the form has been submitted, a field's message follows its value as it changes. */
  const recheck = (name: Name) => {
    if (!submitted.current) return
    const message = validate(values()).errors[name]
    setErrors((shown) => (shown[name] === message ? shown : { ...shown, [name]: message }))
  }

  const field = (name: Name): SchemaFieldProps => ({
    name,
    ref: refFor(name),
    onChange: () => recheck(name),
  })

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault()
    submitted.current = true
    const result = validate(values())
    setErrors(result.errors)
    const invalid = [...elements.current].find(([name]) => result.errors[name])
    if (invalid) {
      invalid[1].focus()
      return
    }
    setSubmitting(true)
    try {
      await onValid(result.values)
    } finally {
      setSubmitting(false)
    }
  }

  return { field, errors, submitting, onSubmit }
}
