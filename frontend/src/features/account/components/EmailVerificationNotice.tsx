import { MailCheck } from 'lucide-react'
import { useState } from 'react'
import { api, errorMessage } from '@/api/client'
import { Button, Paragraph, useToast } from '@/design-system'
import { useCurrentUser } from '@/lib/currentUser'
import { unexpectedError } from '@/lib/errors'

export const VERIFY_EMAIL_NOTICE = 'Check your inbox to confirm your email address'
export const RESEND_FALLBACK = 'Unable to send the confirmation email at this time.'

/** Emails a fresh confirmation link to the signed-in user. */
export async function resendEmailVerification(): Promise<
  { success: true } | { success: false; error: string }
> {
  const { error, response } = await api.POST('/api/v1/users/verify_email/resend')
  if (!response.ok)
    return { success: false, error: errorMessage(error, undefined, RESEND_FALLBACK) }
  return { success: true }
}

/** While a work-email company's content waits for the emailed link: a gentle reminder with
 * 'Resend'. Nothing otherwise. */
export function EmailVerificationNotice() {
  const user = useCurrentUser()
  const { toast } = useToast()
  const [sending, setSending] = useState(false)
  if (!user.email_verification_pending) return null

  const resend = async () => {
    setSending(true)
    try {
      const result = await resendEmailVerification()
      if (result.success) {
        toast({
          message: `We’ve sent a new confirmation link to ${user.email}.`,
          severity: 'success',
          autoDismiss: true,
        })
      } else {
        toast({ message: result.error, severity: 'error', autoDismiss: true })
      }
    } catch (error) {
      toast({ message: unexpectedError(error), severity: 'error', autoDismiss: true })
    } finally {
      setSending(false)
    }
  }

  return (
    <section
      aria-labelledby="verify-email-notice"
      className="flex flex-col gap-3 rounded-2xl bg-primary-50 p-5 sm:flex-row sm:items-center sm:justify-between"
    >
      <div className="flex items-start gap-3">
        <MailCheck aria-hidden="true" className="mt-0.5 size-6 shrink-0 text-primary-700" />
        <div className="flex flex-col gap-1">
          <Paragraph id="verify-email-notice" weight="semibold">
            {VERIFY_EMAIL_NOTICE}
          </Paragraph>
          <Paragraph size="sm" tone="muted" className="wrap-anywhere">
            Your company’s benefits appear once you follow the link we sent to {user.email}.
          </Paragraph>
        </div>
      </div>
      <Button variant="secondary" size="sm" loading={sending} onClick={resend}>
        Resend
      </Button>
    </section>
  )
}
