/**
 * A small form-validation layer: a schema is a function from the form's values to the values to
 * submit (trimmed where the rules say so) and the first message of each invalid field. Plain
 * functions, so nothing is compiled at run time (no `eval` under the CSP). Every form runs its
 * schema through useSchemaForm (src/lib/useSchemaForm.ts).
 */
export type FieldMessages<T> = Partial<Record<keyof T & string, string>>

export interface Validated<T> {
  values: T
  errors: FieldMessages<T>
}

export type Schema<T> = (values: T) => Validated<T>

/** A rule returns the message of the first check the value fails, else undefined. */
export type Rule = (value: string) => string | undefined

const EMAIL_PATTERN =
  /^(?!\.)(?!.*\.\.)([A-Za-z0-9_'+\-.]*)[A-Za-z0-9_+-]@([A-Za-z0-9][A-Za-z0-9-]*\.)+[A-Za-z]{2,}$/

export function isEmail(value: string): boolean {
  return EMAIL_PATTERN.test(value)
}

/** The first message among the rules, in order. */
export function firstMessage(value: string, rules: Rule[]): string | undefined {
  for (const rule of rules) {
    const message = rule(value)
    if (message) return message
  }
  return undefined
}

export const required =
  (message: string): Rule =>
  (value) =>
    value === '' ? message : undefined

export const minLength =
  (min: number, message: string): Rule =>
  (value) =>
    value.length < min ? message : undefined

export const maxLength =
  (max: number, message: string): Rule =>
  (value) =>
    value.length > max ? message : undefined

export const matches =
  (pattern: RegExp, message: string): Rule =>
  (value) =>
    pattern.test(value) ? undefined : message

export const email =
  (message: string): Rule =>
  (value) =>
    isEmail(value) ? undefined : message

/**
 * A schema from per-field rules: `trim` lists the fields whose surrounding spaces are dropped
 * before checking and submitting; `refine` runs only once every field passed its rules.
 */
export function schema<T extends Record<string, string | undefined>>(
  rules: { [K in keyof T]?: Rule[] },
  options: { trim?: Array<keyof T>; refine?: (values: T) => FieldMessages<T> } = {},
): Schema<T> {
  return (input) => {
    const values = { ...input }
    for (const field of options.trim ?? []) {
      const value = values[field]
      if (typeof value === 'string') values[field] = value.trim() as T[keyof T]
    }
    const errors: FieldMessages<T> = {}
    for (const field of Object.keys(rules) as Array<keyof T & string>) {
      const message = firstMessage(values[field] ?? '', rules[field] ?? [])
      if (message) errors[field] = message
    }
    if (Object.keys(errors).length === 0 && options.refine) {
      return { values, errors: options.refine(values) }
    }
    return { values, errors }
  }
}
