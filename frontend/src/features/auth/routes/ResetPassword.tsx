import { useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { Button, FormError, Link, Paragraph, TextInput, useToast } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type ResetPasswordValues, resetPasswordSchema } from '../accountRules'
import { resetPassword } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'

export const PASSWORD_UPDATED =
  'Your password has been updated successfully. You can sign in with your new password now.'

/** ResetPassword (spec §2, §5): a new password and its confirmation for the emailed token. */
export default function ResetPassword() {
  const { resetToken = '' } = useParams()
  const navigate = useNavigate()
  const { toast } = useToast()
  const [serverError, setServerError] = useState<string>()
  const { field, errors, submitting, onSubmit } = useSchemaForm<ResetPasswordValues>(
    resetPasswordSchema,
    async ({ password, confirmation }) => {
      setServerError(undefined)
      try {
        const result = await resetPassword(resetToken, password, confirmation)
        if (!result.success) return setServerError(result.error)
        toast({ message: PASSWORD_UPDATED, severity: 'success', autoDismiss: true })
        navigate('/sign-in', { replace: true })
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )

  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Choose a new password">
        Pick something you haven’t used here before. It needs at least 6 characters.
      </AuthHeader>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
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
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={submitting}>
          Update password
        </Button>
      </form>
      <Paragraph size="sm" tone="muted" className="text-center">
        Link expired? <Link to="/forgot-password">Request a new one</Link>
      </Paragraph>
    </div>
  )
}
