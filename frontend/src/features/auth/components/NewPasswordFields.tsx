import { TextInput } from '@/design-system'
import type { SchemaFieldProps } from '@/lib/useSchemaForm'
import type { FieldMessages } from '@/lib/validation'
import type { ResetPasswordValues } from '../accountRules'

/** A new password and its confirmation (spec §5, `resetPasswordSchema`): the reset page's and
 * the account's password form. */
export function NewPasswordFields({
  field,
  errors,
}: {
  field: (name: keyof ResetPasswordValues) => SchemaFieldProps
  errors: FieldMessages<ResetPasswordValues>
}) {
  return (
    <>
      <TextInput
        label="New password"
        type="password"
        required
        autoComplete="new-password"
        error={errors.password}
        {...field('password')}
      />
      <TextInput
        label="Confirm new password"
        type="password"
        required
        autoComplete="new-password"
        error={errors.confirmation}
        {...field('confirmation')}
      />
    </>
  )
}
