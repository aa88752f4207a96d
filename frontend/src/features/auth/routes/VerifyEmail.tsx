import { useQueryClient } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useParams } from 'react-router'
import { Button, Paragraph } from '@/design-system'
import { INVALID_EMAIL_VERIFICATION, verifyEmail } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'
import { StatusIcon, StatusWorking } from '../components/StatusIcon'
import { SupportLink } from '../components/SupportLink'

type VerifyState = 'loading' | 'success' | 'error'

/** VerifyEmail: follows the link emailed at sign-up once on load; waiting, success or failure.
 * Confirming shows the company's benefits, so the signed-in user's data is refetched. */
export default function VerifyEmail() {
  const { verificationToken = '' } = useParams()
  const queryClient = useQueryClient()
  const [state, setState] = useState<VerifyState>('loading')
  const [error, setError] = useState(INVALID_EMAIL_VERIFICATION)
  const started = useRef<string | null>(null)

  useEffect(() => {
    // Once per token, even when StrictMode runs the effect twice: the link works only once.
    if (started.current === verificationToken) return
    started.current = verificationToken
    verifyEmail(verificationToken)
      .then((result) => {
        if (result.success) {
          // A user fetched while the link was being followed would still read 'pending' and,
          // landing after the invalidation, count as fresh: cancel it, then mark all stale.
          void queryClient.cancelQueries().then(() => queryClient.invalidateQueries())
          setState('success')
          return
        }
        if (result.error !== INVALID_EMAIL_VERIFICATION) console.error(result.error)
        if (result.error) setError(result.error)
        setState('error')
      })
      .catch((reason: unknown) => {
        console.error(reason)
        setState('error')
      })
  }, [verificationToken, queryClient])

  if (state === 'loading') return <StatusWorking label="Confirming your email address…" />

  if (state === 'success') {
    return (
      <div className="flex flex-col gap-6">
        <StatusIcon ok />
        <AuthHeader title="Your email address is confirmed.">
          Your company’s benefits and offers are ready for you.
        </AuthHeader>
        <Button to="/benefits-and-offers" fullWidth>
          See your benefits
        </Button>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-6">
      <StatusIcon ok={false} />
      <AuthHeader title="We couldn’t confirm your email address">{error}</AuthHeader>
      <Paragraph size="sm" tone="muted">
        Still stuck? <SupportLink>Contact support</SupportLink> and we’ll help you.
      </Paragraph>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Return to sign in
      </Button>
    </div>
  )
}
