import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FormError, TextInput, useToast } from '@/design-system'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { unexpectedError } from '@/lib/errors'
import { VALIDATION } from '@/lib/formRules'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { maxLength, required, schema } from '@/lib/validation'
import { nameSave } from '../api'
import { FormActions } from './FormActions'

const NAME_MAX = 150
const tooLong = `Please use at most ${NAME_MAX} characters.`

type NameValues = { firstName: string; lastName: string }
const nameSchema = schema<NameValues>(
  {
    firstName: [required(VALIDATION.firstNameRequired), maxLength(NAME_MAX, tooLong)],
    lastName: [required(VALIDATION.lastNameRequired), maxLength(NAME_MAX, tooLong)],
  },
  { trim: ['firstName', 'lastName'] },
)

/** The account's first and last name (spec §5 sign-up rules). */
export function NameForm({ initial, onDone }: { initial: NameValues; onDone: () => void }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [serverError, setServerError] = useState<string>()
  const { field, errors, showServerErrors, submitting, onSubmit } = useSchemaForm(
    nameSchema,
    async ({ firstName, lastName }) => {
      setServerError(undefined)
      try {
        const saved = await nameSave(firstName, lastName)
        if (!saved.ok) {
          const onFields = (
            [
              ['firstName', saved.fields.first_name?.[0]],
              ['lastName', saved.fields.last_name?.[0]],
            ] as const
          ).flatMap(([name, message]) => (message ? [[name, message] as const] : []))
          if (onFields.length) showServerErrors(onFields)
          else setServerError(saved.error)
          return
        }
        queryClient.setQueryData(currentUserQuery.queryKey, saved.value)
        toast({ message: 'Your name is saved.', severity: 'success', autoDismiss: true })
        onDone()
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
    initial,
  )
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextInput
          label="First name"
          required
          autoComplete="given-name"
          error={errors.firstName}
          {...field('firstName')}
        />
        <TextInput
          label="Last name"
          required
          autoComplete="family-name"
          error={errors.lastName}
          {...field('lastName')}
        />
      </div>
      <FormError message={serverError} />
      <FormActions submitting={submitting} onCancel={onDone} />
    </form>
  )
}
