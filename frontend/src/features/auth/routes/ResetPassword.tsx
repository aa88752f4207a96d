import { useEffect, useState } from 'react'
import { useNavigate, useParams } from 'react-router'
import { Button, FormError, Link, Paragraph, useToast } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type ResetPasswordValues, resetPasswordSchema } from '../accountRules'
import { resetLinkProblem, resetPassword } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'
import { NewPasswordFields } from '../components/NewPasswordFields'
import { StatusIcon, StatusWorking } from '../components/StatusIcon'
import { SupportLink } from '../components/SupportLink'

export const PASSWORD_UPDATED =
  'Your password has been updated successfully. You can sign in with your new password now.'

/**
 * ResetPassword (spec §2, §5): a new password and its confirmation for the emailed token. The
 * link is checked as the page opens, so a used or expired one says so before anything is typed.
 */
export default function ResetPassword() {
  const { resetToken = '' } = useParams()
  const link = useResetLinkCheck(resetToken)
  if (link.state === 'checking') return <StatusWorking label="Checking your reset link…" />
  if (link.state === 'invalid') return <ResetLinkInvalid message={link.message} />
  return <ResetPasswordForm resetToken={resetToken} onLinkInvalid={link.invalid} />
}

type LinkCheck =
  | { state: 'checking' }
  | { state: 'usable'; invalid: (message: string) => void }
  | { state: 'invalid'; message: string }

/** The link's state: checked once per token on load, and marked invalid when a submit says so. */
function useResetLinkCheck(token: string): LinkCheck {
  const [problem, setProblem] = useState<{ token: string; message: string | null }>()
  useEffect(() => {
    let current = true
    resetLinkProblem(token)
      .catch(() => null) // Unknown: the form shows, and its submit says what is wrong.
      .then((message) => current && setProblem({ token, message }))
    return () => {
      current = false
    }
  }, [token])
  if (problem?.token !== token) return { state: 'checking' }
  if (problem.message) return { state: 'invalid', message: problem.message }
  return { state: 'usable', invalid: (message) => setProblem({ token, message }) }
}

function ResetLinkInvalid({ message }: { message: string }) {
  return (
    <div className="flex flex-col gap-6">
      <StatusIcon ok={false} />
      <AuthHeader title="This reset link can’t be used">{message}</AuthHeader>
      <Button to="/forgot-password" fullWidth>
        Request a new link
      </Button>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Return to sign in
      </Button>
      <Paragraph size="sm" tone="muted" className="text-center">
        Still stuck? <SupportLink>Contact support</SupportLink> and we’ll help you.
      </Paragraph>
    </div>
  )
}

function ResetPasswordForm({
  resetToken,
  onLinkInvalid,
}: {
  resetToken: string
  onLinkInvalid: (message: string) => void
}) {
  const navigate = useNavigate()
  const { toast } = useToast()
  const [serverError, setServerError] = useState<string>()
  const { field, errors, submitting, onSubmit } = useSchemaForm<ResetPasswordValues>(
    resetPasswordSchema,
    async ({ password, confirmation }) => {
      setServerError(undefined)
      try {
        const result = await resetPassword(resetToken, password, confirmation)
        if (!result.success) {
          // The link was used or expired while the page was open.
          if (result.errors?.reset_password_token && result.error) {
            return onLinkInvalid(result.error)
          }
          return setServerError(result.error)
        }
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
        <NewPasswordFields field={field} errors={errors} />
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
