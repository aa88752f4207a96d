import { useState } from 'react'
import { Controller, useForm } from 'react-hook-form'
import { Button, FormError, PhoneInput } from '@/design-system'
import { type MfaPhoneValues, mfaPhoneSchema } from '@/features/mfa'
import { unexpectedError } from '@/lib/errors'
import { schemaResolver } from '@/lib/validation'
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
  const {
    control,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<MfaPhoneValues>({
    resolver: schemaResolver(mfaPhoneSchema),
    defaultValues: { phone: defaultPhone },
  })

  const onSubmit = handleSubmit(async ({ phone }) => {
    setServerError(undefined)
    try {
      const result = await enrollMfa(phone)
      if (!result.success) return setServerError(result.error)
      onEnrolled(phone)
    } catch (error) {
      setServerError(unexpectedError(error))
    }
  })

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <Controller
        control={control}
        name="phone"
        render={({ field }) => (
          <PhoneInput
            label="Mobile phone number"
            required
            mask={PHONE_MASK}
            name={field.name}
            ref={field.ref}
            value={field.value}
            onBlur={field.onBlur}
            onValueChange={(digits) => field.onChange(digits)}
            description="We’ll text a 6-digit code to this number. Message and data rates may apply."
            error={errors.phone?.message}
          />
        )}
      />
      <FormError message={serverError} />
      <Button type="submit" fullWidth loading={isSubmitting}>
        Send code
      </Button>
    </form>
  )
}
