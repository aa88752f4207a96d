import { useState } from 'react'
import { Button, FormError, Link, Paragraph, TextInput } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type ForgotPasswordValues, forgotPasswordSchema } from '../accountRules'
import { requestPasswordReset } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'
import { focusOnMount } from '../components/focusOnMount'
import { MailSentIcon } from '../components/StatusIcon'

export const RESET_LINK_SENT =
  'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.'

/** ForgotPassword (spec §2): asks for a reset link, then confirms without saying if the email exists. */
export default function ForgotPassword() {
  const [sent, setSent] = useState(false)
  const [serverError, setServerError] = useState<string>()
  const { field, errors, submitting, onSubmit } = useSchemaForm<ForgotPasswordValues>(
    forgotPasswordSchema,
    async ({ email }) => {
      setServerError(undefined)
      try {
        const result = await requestPasswordReset(email)
        if (result.success) setSent(true)
        else setServerError(result.error)
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )

  if (sent) {
    return (
      <div
        ref={focusOnMount}
        tabIndex={-1}
        className="flex flex-col gap-6 outline-none"
        role="status"
      >
        <MailSentIcon />
        <AuthHeader title="Check your email">{RESET_LINK_SENT}</AuthHeader>
        <Button to="/sign-in" variant="secondary" fullWidth>
          Return to sign in
        </Button>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Forgot your password?">
        Enter the email address you signed up with and we’ll send you a link to choose a new
        password.
      </AuthHeader>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <TextInput
          label="Email address"
          type="email"
          required
          autoComplete="email"
          error={errors.email}
          {...field('email')}
        />
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={submitting}>
          Send reset link
        </Button>
      </form>
      <Paragraph size="sm" tone="muted" className="text-center">
        Remembered it? <Link to="/sign-in">Return to sign in</Link>
      </Paragraph>
    </div>
  )
}
