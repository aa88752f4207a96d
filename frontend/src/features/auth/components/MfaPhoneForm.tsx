import { useState } from 'react'
import { Button, FormError, PhoneInput } from '@/design-system'
import { type MfaPhoneValues, mfaPhoneSchema } from '@/features/mfa'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { enrollMfa } from '../api/mfa'

export const PHONE_MASK = '(999) 999-9999'

/** The MFA phone form: exactly 10 digits (spec §5), sent as digits to enrolment. */
export function MfaPhoneForm({
  defaultPhone = '',
  onEnrolled,
}: {
  defaultPhone?: string
  onEnrolled: (phoneDigits: string) => void
}) {
  const [serverError, setServerError] = useState<string>()
  const { controlledField, errors, submitting, onSubmit } = useSchemaForm<MfaPhoneValues>(
    mfaPhoneSchema,
    async ({ phone }) => {
      setServerError(undefined)
      try {
        const result = await enrollMfa(phone)
        if (!result.success) return setServerError(result.error)
        onEnrolled(phone)
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
    { phone: defaultPhone },
  )
  const phone = controlledField('phone')

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <PhoneInput
        label="Mobile phone number"
        required
        mask={PHONE_MASK}
        name={phone.name}
        value={phone.value}
        onValueChange={phone.onChange}
        description="We’ll text a 6-digit code to this number. Message and data rates may apply."
        error={errors.phone}
      />
      <FormError message={serverError} />
      <Button type="submit" fullWidth loading={submitting}>
        Send code
      </Button>
    </form>
  )
}
