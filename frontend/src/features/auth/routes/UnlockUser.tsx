import { useEffect, useRef, useState } from 'react'
import { useParams } from 'react-router'
import { Button, Paragraph } from '@/design-system'
import { INVALID_UNLOCK_TOKEN, unlockAccount } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'
import { StatusIcon, StatusWorking } from '../components/StatusIcon'
import { SupportLink } from '../components/SupportLink'

export const UNLOCK_FAILED =
  'We were unable to unlock your account. Please check the link you used to unlock your account and try again.'

type UnlockState = 'loading' | 'success' | 'error'

/** UnlockUser (spec §2, §4): unlocks the account once on load; waiting, success or failure. */
export default function UnlockUser() {
  const { unlockToken = '' } = useParams()
  const [state, setState] = useState<UnlockState>('loading')
  const started = useRef<string | null>(null)

  useEffect(() => {
    // Once per token, even when StrictMode runs the effect twice.
    if (started.current === unlockToken) return
    started.current = unlockToken
    unlockAccount(unlockToken)
      .then((result) => {
        // 'Invalid unlock token.' is an expected outcome, not an error to report (spec §8).
        if (!result.success && result.error !== INVALID_UNLOCK_TOKEN) console.error(result.error)
        setState(result.success ? 'success' : 'error')
      })
      .catch((error: unknown) => {
        console.error(error)
        setState('error')
      })
  }, [unlockToken])

  if (state === 'loading') return <StatusWorking label="Unlocking your account…" />

  if (state === 'success') {
    return (
      <div className="flex flex-col gap-6">
        <StatusIcon ok />
        <AuthHeader title="Your account has been unlocked.">
          You can sign in again with your email address and password.
        </AuthHeader>
        <Button to="/sign-in" fullWidth>
          Sign in
        </Button>
      </div>
    )
  }

  return (
    <div className="flex flex-col gap-6">
      <StatusIcon ok={false} />
      <AuthHeader title="We couldn’t unlock your account">{UNLOCK_FAILED}</AuthHeader>
      <Paragraph size="sm" tone="muted">
        Still stuck? <SupportLink>Contact support</SupportLink> and we’ll help you get back in.
      </Paragraph>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Return to sign in
      </Button>
    </div>
  )
}
