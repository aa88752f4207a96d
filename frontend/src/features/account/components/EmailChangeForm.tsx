import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { FormError, Paragraph, TextInput, useToast } from '@/design-system'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { unexpectedError } from '@/lib/errors'
import { emailRules } from '@/lib/formRules'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { required, schema } from '@/lib/validation'
import { emailChangeRequest } from '../api'
import { FormActions } from './FormActions'
import { freshCheck, PROOF_MESSAGES, ProofField } from './ProofField'

type EmailValues = { email: string; proof: string }

function emailSchema(useCode: boolean) {
  return schema<EmailValues>(
    {
      email: emailRules,
      proof: [required(useCode ? PROOF_MESSAGES.code : PROOF_MESSAGES.password)],
    },
    { trim: ['email'] },
  )
}

/** A new email address: a link goes to it, and the account's address changes once it is
 * opened. Asks again for the password (or a code). */
export function EmailChangeForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [useCode, setUseCode] = useState(false)
  const [serverError, setServerError] = useState<string>()
  const { field, errors, showServerErrors, submitting, onSubmit } = useSchemaForm(
    emailSchema(useCode),
    async ({ email, proof }) => {
      setServerError(undefined)
      try {
        const sent = await emailChangeRequest(email, freshCheck(useCode, proof))
        if (!sent.ok) {
          const email = sent.fields.email?.[0]
          showServerErrors([
            email ? ['email', email] : ['proof', sent.fields.password?.[0] ?? sent.error],
          ])
          return
        }
        await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey })
        toast({
          message: `We sent a confirmation link to ${sent.value}.`,
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
      <Paragraph size="sm" tone="muted">
        We’ll send a link to the new address. Your email changes once you open it, and we’ll let
        your current address know.
      </Paragraph>
      <TextInput
        label="New email address"
        type="email"
        required
        autoComplete="email"
        error={errors.email}
        {...field('email')}
      />
      <ProofField
        useCode={useCode}
        onToggle={() => setUseCode(!useCode)}
        error={errors.proof}
        {...field('proof')}
      />
      <FormError message={serverError} />
      <FormActions submitting={submitting} label="Send confirmation link" onCancel={onDone} />
    </form>
  )
}
