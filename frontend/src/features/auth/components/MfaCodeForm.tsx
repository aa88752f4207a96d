import { type ReactNode, useState } from 'react'
import { Button, FormError, linkClassName, TextInput, useToast } from '@/design-system'
import {
  type MfaCodeValues,
  mfaCodeSchema,
  recoveryCodeSchema,
  totpCodeSchema,
} from '@/features/mfa'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { sendOtp, verifyMfa } from '../api/mfa'

export const CODE_RESENT = 'A new verification code has been sent to your phone number.'

interface MfaCodeFormProps {
  /** Runs after a successful check (the MFA token is already stored). */
  onVerified: () => void | Promise<void>
  /** Extra actions under the form (e.g. 'Change phone number'). */
  footer?: ReactNode
  /** An authenticator app's or a recovery code instead of the SMS code (no 'Resend code'). */
  method?: 'totp' | 'recovery'
}

const LABELS = { totp: 'Code from your authenticator app', recovery: 'Recovery code' } as const

const RESEND_TOAST = 'mfa-code-resend'

/** The 6-digit verification-code form with a 'Resend code' action (spec §2, §5). */
export function MfaCodeForm({ onVerified, footer, method }: MfaCodeFormProps) {
  const { toast } = useToast()
  const [serverError, setServerError] = useState<string>()
  const [resending, setResending] = useState(false)
  const schema =
    method === 'recovery' ? recoveryCodeSchema : method === 'totp' ? totpCodeSchema : mfaCodeSchema
  const { field, errors, submitting, onSubmit } = useSchemaForm<MfaCodeValues>(
    schema,
    async ({ code }) => {
      setServerError(undefined)
      try {
        const result = await verifyMfa(code, method ? { method, otp: code } : undefined)
        if (!result.success) return setServerError(result.error)
        await onVerified()
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )

  // One toast for the latest resend's outcome: pressing again replaces it rather than
  // stacking copies over the form.
  const say = (message: ReactNode, severity: 'success' | 'error') =>
    toast({ id: RESEND_TOAST, message, severity, autoDismiss: true })
  const resend = async () => {
    setResending(true)
    try {
      const result = await sendOtp()
      if (result.success) say(CODE_RESENT, 'success')
      else say(result.error, 'error')
    } catch (error) {
      say(unexpectedError(error), 'error')
    } finally {
      setResending(false)
    }
  }

  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <TextInput
        label={method ? LABELS[method] : 'Verification code'}
        required
        inputMode={method === 'recovery' ? 'text' : 'numeric'}
        autoComplete="one-time-code"
        autoFocus
        error={errors.code}
        inputClassName={method === 'recovery' ? 'tracking-wider' : 'tracking-[0.3em] tabular-nums'}
        {...field('code')}
      />
      <FormError message={serverError} />
      <Button type="submit" fullWidth loading={submitting}>
        Verify
      </Button>
      {method ? null : (
        <p className="text-center text-sm text-ink-muted">
          Didn’t get a code?{' '}
          <button
            type="button"
            onClick={resend}
            disabled={resending}
            aria-busy={resending || undefined}
            className={linkClassName({ className: 'disabled:cursor-progress disabled:opacity-70' })}
          >
            Resend code
          </button>
        </p>
      )}
      {footer}
    </form>
  )
}
