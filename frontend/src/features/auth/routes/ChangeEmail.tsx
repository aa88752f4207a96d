import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useParams } from 'react-router'
import { api, errorMessage, fieldErrors } from '@/api/client'
import { Button, Paragraph } from '@/design-system'
import { session } from '@/lib/session'
import { AuthHeader } from '../components/AuthHeader'
import { StatusIcon, StatusWorking } from '../components/StatusIcon'
import { SupportLink } from '../components/SupportLink'

type ChangeState = 'loading' | 'success' | 'error'

const INVALID_EMAIL_CHANGE =
  'This confirmation link is invalid, already used or expired. Ask for a new one on your Account page.'

/** Follows the link sent to a new address: the account's email becomes that address. */
async function confirmEmailChange(token: string): Promise<{ success: boolean; error?: string }> {
  const { error, response } = await api.POST('/api/v1/users/email_change/confirm', {
    body: { token },
  })
  if (response.ok) return { success: true }
  return {
    success: false,
    error: fieldErrors(error).token?.[0] ?? errorMessage(error, response, INVALID_EMAIL_CHANGE),
  }
}

/** ChangeEmail: follows the link sent to a new address from the Account page, once, on load;
 * waiting, success or failure. Signed in or not: the link is opened from that mailbox. */
export default function ChangeEmail() {
  const { changeToken = '' } = useParams()
  const queryClient = useQueryClient()
  const [state, setState] = useState<ChangeState>('loading')
  const [error, setError] = useState(INVALID_EMAIL_CHANGE)
  const started = useRef<string | null>(null)

  useEffect(() => {
    // Once per token, even when StrictMode runs the effect twice: the link works only once.
    if (started.current === changeToken) return
    started.current = changeToken
    confirmEmailChange(changeToken)
      .then((result) => {
        if (result.success) {
          void queryClient.cancelQueries().then(() => queryClient.invalidateQueries())
          setState('success')
          return
        }
        if (result.error) setError(result.error)
        setState('error')
      })
      .catch((reason: unknown) => {
        console.error(reason)
        setState('error')
      })
  }, [changeToken, queryClient])

  if (state === 'loading') return <StatusWorking label="Changing your email address…" />
  const signedIn = Boolean(session.get().token)

  if (state === 'success') {
    return (
      <div className="flex flex-col gap-6">
        <StatusIcon ok />
        <AuthHeader title="Your email address is changed.">
          Sign in with your new address from now on.
        </AuthHeader>
        <Button to={signedIn ? '/account' : '/sign-in'} fullWidth>
          {signedIn ? 'Back to your account' : 'Sign in'}
        </Button>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-6">
      <StatusIcon ok={false} />
      <AuthHeader title="We couldn’t change your email address">{error}</AuthHeader>
      <Paragraph size="sm" tone="muted">
        Still stuck? <SupportLink>Contact support</SupportLink> and we’ll help you.
      </Paragraph>
      <Button to={signedIn ? '/account' : '/sign-in'} variant="secondary" fullWidth>
        {signedIn ? 'Back to your account' : 'Return to sign in'}
      </Button>
    </div>
  )
}
