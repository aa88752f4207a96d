import { useQueryClient } from '@tanstack/react-query'
import { ArrowLeft, LogOut, ShieldCheck } from 'lucide-react'
import { useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { applyMask, Button, useToast } from '@/design-system'
import { RecoveryCodes, TotpSetup } from '@/features/mfa'
import { postLoginPath } from '@/lib/currentUser'
import { currentUserQuery, useSignOut } from '@/lib/currentUserQuery'
import { session, useSession } from '@/lib/session'
import { AuthHeader } from '../components/AuthHeader'
import { MfaCodeForm } from '../components/MfaCodeForm'
import { MfaPhoneForm, PHONE_MASK } from '../components/MfaPhoneForm'

/** MfaEnrollment (spec §2, §4): phone number, then the code; then onboarding or the landing.
 * Opened from the Account page (router state `{ from: 'account' }`) it leads back there, done
 * or not. */
export default function MfaEnrollment() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const fromAccount = (useLocation().state as { from?: string } | null)?.from === 'account'
  const { mfaRequired, mfaEnrollmentAvailable } = useSession()
  // A pending sign-in check (already enrolled) goes straight to the code.
  const [phone, setPhone] = useState<string | null>(
    mfaRequired && !mfaEnrollmentAvailable ? '' : null,
  )

  const [app, setApp] = useState(false)
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null)
  const pendingMfaToken = useRef<string | null>(null)
  const finish = () => {
    if (pendingMfaToken.current) session.setMfaToken(pendingMfaToken.current)
    return onVerified()
  }

  const onVerified = async () => {
    if (fromAccount) {
      await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey })
      toast({ message: 'Text messages added.', severity: 'success', autoDismiss: true })
      navigate('/account', { replace: true })
      return
    }
    await queryClient.invalidateQueries({
      queryKey: currentUserQuery.queryKey,
      refetchType: 'none',
    })
    let user: CurrentUser | null = null
    try {
      user = await queryClient.fetchQuery({ ...currentUserQuery, staleTime: 0 })
    } catch (error) {
      console.error(error)
    }
    navigate(user?.onboarding_required ? '/welcome/about-us' : postLoginPath(user), {
      replace: true,
    })
  }

  if (recoveryCodes) {
    return (
      <div className="flex flex-col gap-8">
        <Badge />
        <RecoveryCodes codes={recoveryCodes} onDone={finish} doneLabel="Continue" />
      </div>
    )
  }

  if (app) {
    return (
      <div className="flex flex-col gap-8">
        <Badge />
        <AuthHeader title="Set up an authenticator app">
          Each time you sign in, your authenticator app will give you a code to confirm it’s you.
        </AuthHeader>
        <TotpSetup
          onAdded={({ recoveryCodes: codes, mfaToken }) => {
            // Stored once the codes are saved: the session's flags decide this page's guard.
            pendingMfaToken.current = mfaToken
            return codes ? setRecoveryCodes(codes) : finish()
          }}
          onCancel={() => setApp(false)}
        />
      </div>
    )
  }

  if (phone === null) {
    return (
      <div className="flex flex-col gap-8">
        <Badge />
        <AuthHeader title="Set up two-step verification">
          Add a mobile number to keep your account safe. Each time you sign in, we’ll text you a
          code to confirm it’s you.
        </AuthHeader>
        <MfaPhoneForm onEnrolled={setPhone} />
        {fromAccount ? null : (
          <Button variant="tertiary" size="sm" onClick={() => setApp(true)}>
            Use an authenticator app instead
          </Button>
        )}
        {fromAccount ? <BackToAccount /> : <SignOutLink />}
      </div>
    )
  }

  const shownPhone = phone ? applyMask(PHONE_MASK, phone) : 'your phone'
  return (
    <div className="flex flex-col gap-8">
      <Badge />
      <AuthHeader title="Enter your verification code">
        We sent a 6-digit code to {shownPhone}. It may take a minute to arrive.
      </AuthHeader>
      <MfaCodeForm
        onVerified={onVerified}
        footer={
          phone ? (
            <Button variant="tertiary" size="sm" onClick={() => setPhone(null)}>
              Change phone number
            </Button>
          ) : null
        }
      />
      {fromAccount ? <BackToAccount /> : <SignOutLink />}
    </div>
  )
}

function BackToAccount() {
  return (
    <Button to="/account" variant="tertiary" size="sm" icon={<ArrowLeft />} className="self-center">
      Back to Account
    </Button>
  )
}

/** A way out for someone who cannot finish the check now (wrong account, no phone at hand). */
function SignOutLink() {
  const { signingOut, onSignOut } = useSignOut()
  return (
    <Button
      variant="tertiary"
      size="sm"
      icon={<LogOut />}
      loading={signingOut}
      onClick={onSignOut}
      className="self-center"
    >
      Sign out
    </Button>
  )
}

function Badge() {
  return (
    <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary-50 text-primary-700">
      <ShieldCheck aria-hidden="true" className="size-7" />
    </span>
  )
}
