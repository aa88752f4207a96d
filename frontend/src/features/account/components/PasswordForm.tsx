import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FormError, useToast } from '@/design-system'
import { NewPasswordFields, type ResetPasswordValues, resetPasswordSchema } from '@/features/auth'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { required, schema } from '@/lib/validation'
import { passwordChange, signedInDevicesQuery } from '../api'
import { FormActions } from './FormActions'
import { freshCheck, PROOF_MESSAGES, ProofField } from './ProofField'

type PasswordValues = ResetPasswordValues & { proof: string }

function passwordSchema(useCode: boolean) {
  const proofRule = schema<{ proof: string }>({
    proof: [required(useCode ? PROOF_MESSAGES.code : PROOF_MESSAGES.password)],
  })
  return (values: PasswordValues) => {
    const proof = proofRule(values)
    const passwords = resetPasswordSchema(values)
    return {
      values: { ...values, ...passwords.values },
      errors: { ...proof.errors, ...passwords.errors },
    }
  }
}

const SERVER_FIELDS = {
  password: 'proof',
  new_password: 'password',
  new_password_confirmation: 'confirmation',
} as const

/** A new password (spec §5 reset-password rules), proved by the current one or a code; every
 * other device is signed out, this one stays. */
export function PasswordForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [useCode, setUseCode] = useState(false)
  const [serverError, setServerError] = useState<string>()
  const { field, errors, showServerErrors, submitting, onSubmit } = useSchemaForm(
    passwordSchema(useCode),
    async ({ password, confirmation, proof }) => {
      setServerError(undefined)
      try {
        const changed = await passwordChange(password, confirmation, freshCheck(useCode, proof))
        if (!changed.ok) {
          const onFields = Object.entries(SERVER_FIELDS).flatMap(([name, own]) => {
            const message = changed.fields[name]?.[0]
            return message ? [[own, message] as const] : []
          })
          showServerErrors(onFields.length ? onFields : [['proof', changed.error]])
          return
        }
        await queryClient.invalidateQueries({ queryKey: signedInDevicesQuery.queryKey })
        toast({
          message: 'Your password is changed. Other devices were signed out.',
          severity: 'success',
          autoDismiss: true,
        })
        onDone()
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
      <ProofField
        useCode={useCode}
        onToggle={() => setUseCode(!useCode)}
        error={errors.proof}
        {...field('proof')}
      />
      <NewPasswordFields field={field} errors={errors} />
      <FormError message={serverError} />
      <FormActions submitting={submitting} label="Change password" onCancel={onDone} />
    </form>
  )
}
