import { useQueryClient } from '@tanstack/react-query'
import { type ReactNode, useState } from 'react'
import { FormError, Paragraph, PhoneInput, TextInput } from '@/design-system'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { ANSWER, addressGroupLine, answerText } from '../answers'
import { type OnboardingAnswer, onboardingAnswersQuery, saveOnboardingAnswers } from '../api'
import { addressStarted, type ContactInfoValues, contactInfoSchema } from './contactInfoSchema'

const FIELD_ANSWERS: Record<keyof ContactInfoValues, number> = {
  phone: ANSWER.phone,
  preferredEmail: ANSWER.preferredEmail,
  addressLine1: ANSWER.addressLine1,
  addressLine2: ANSWER.addressLine2,
  city: ANSWER.city,
  state: ANSWER.state,
  postalCode: ANSWER.postalCode,
  country: ANSWER.country,
}

/** The form's first values: the stored answers, the account's email as the preferred one. */
export function contactDetailsInitial(
  answers: readonly OnboardingAnswer[],
  email: string,
): ContactInfoValues {
  const text = (id: number) => answerText(answers, id)
  return {
    phone: text(ANSWER.phone).replace(/\D/g, '').slice(-10),
    preferredEmail: text(ANSWER.preferredEmail) || email,
    addressLine1: text(ANSWER.addressLine1),
    addressLine2: text(ANSWER.addressLine2),
    city: text(ANSWER.city),
    state: text(ANSWER.state),
    postalCode: text(ANSWER.postalCode),
    country: text(ANSWER.country),
  }
}

function answersOf(values: ContactInfoValues): OnboardingAnswer[] {
  return [
    ...(Object.keys(FIELD_ANSWERS) as Array<keyof ContactInfoValues>).map((name) => ({
      answer_id: FIELD_ANSWERS[name],
      value: values[name] === '' ? null : values[name],
    })),
    {
      answer_id: ANSWER.address,
      value: addressGroupLine([
        values.addressLine1,
        values.addressLine2,
        values.city,
        values.state,
        values.postalCode,
        values.country,
      ]),
    },
  ]
}

/** The server's messages (keyed by answer id) that belong to a form field, in form order. */
function fieldMessages(errors: Record<string, string[]> = {}) {
  return (Object.keys(FIELD_ANSWERS) as Array<keyof ContactInfoValues>).flatMap((name) => {
    const message = errors[String(FIELD_ANSWERS[name])]?.[0]
    return message ? [[name, message] as const] : []
  })
}

/**
 * The phone, preferred email and address a concierge books with (spec §3 ids, §5 rules): saved
 * as onboarding answers by onboarding step 3 and by the Account page. `header` comes first,
 * `actions` (the submit button, given whether it is saving) last.
 */
export function ContactDetailsForm({
  initial,
  header,
  actions,
  onSaved,
}: {
  initial: ContactInfoValues
  header?: ReactNode
  actions: (submitting: boolean) => ReactNode
  onSaved: () => Promise<void> | void
}) {
  const queryClient = useQueryClient()
  const [serverError, setServerError] = useState<string>()
  const { field, controlledField, watch, errors, showServerErrors, submitting, onSubmit } =
    useSchemaForm(
      contactInfoSchema,
      async (values) => {
        setServerError(undefined)
        try {
          const result = await saveOnboardingAnswers(answersOf(values))
          if (!result.success) {
            const onFields = fieldMessages(result.errors)
            if (onFields.length === 0) return setServerError(result.error)
            showServerErrors(onFields)
            return
          }
          await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey })
          await queryClient.invalidateQueries({ queryKey: onboardingAnswersQuery.queryKey })
          await onSaved()
        } catch (error) {
          setServerError(unexpectedError(error))
        }
      },
      initial,
    )
  const addressRequired = addressStarted(watch())
  const phone = controlledField('phone')

  const textField = (name: keyof ContactInfoValues) => ({ ...field(name), error: errors[name] })

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-6">
      {header}
      <fieldset className="flex flex-col gap-5">
        <legend className="mb-4 text-base font-semibold text-ink">Contact</legend>
        <PhoneInput
          label="Phone number"
          mask="(999) 999-9999"
          name={phone.name}
          value={phone.value}
          onValueChange={phone.onChange}
          error={errors.phone}
        />
        <TextInput
          label="Preferred email"
          type="email"
          autoComplete="email"
          {...textField('preferredEmail')}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-5">
        <legend className="mb-1 text-base font-semibold text-ink">Address</legend>
        <Paragraph size="sm" tone="muted">
          If you add an address, we need the street, city, state, postal code and country.
        </Paragraph>
        <TextInput
          label="Address line 1"
          required={addressRequired}
          autoComplete="address-line1"
          {...textField('addressLine1')}
        />
        <TextInput
          label="Address line 2"
          autoComplete="address-line2"
          {...textField('addressLine2')}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput
            label="City"
            required={addressRequired}
            autoComplete="address-level2"
            {...textField('city')}
          />
          <TextInput
            label="State"
            required={addressRequired}
            autoComplete="address-level1"
            {...textField('state')}
          />
          <TextInput
            label="Postal code"
            required={addressRequired}
            autoComplete="postal-code"
            {...textField('postalCode')}
          />
          <TextInput
            label="Country"
            required={addressRequired}
            autoComplete="country-name"
            {...textField('country')}
          />
        </div>
      </fieldset>

      <FormError message={serverError} />
      {actions(submitting)}
    </form>
  )
}
