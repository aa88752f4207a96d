import { KeyRound } from 'lucide-react'
import { type ReactNode, useEffect, useState } from 'react'
import { Button, FormError, linkClassName, Spinner, useToast } from '@/design-system'
import { config } from '@/lib/config'
import { unexpectedError } from '@/lib/errors'
import { type MfaMethods, mfaMethods, verifyMfaWithPasskey } from '../api/factors'
import { sendOtp } from '../api/mfa'
import { AuthHeader } from './AuthHeader'
import { MfaCodeForm } from './MfaCodeForm'

type Method = 'passkey' | 'totp' | 'sms' | 'recovery'

const SWITCH_LABELS: Record<Method, string> = {
  passkey: 'Use a passkey instead',
  totp: 'Use your authenticator app instead',
  sms: 'Send a text instead',
  recovery: 'Use a recovery code',
}

/**
 * The MFA step of signing in: the user's strongest factor first, with the others offered
 * below ('Send a text instead' when a phone is enrolled). A user with only a phone sees the
 * spec's SMS code form, unchanged.
 */
export default function MfaStep({
  onVerified,
  footer,
}: {
  onVerified: () => Promise<void>
  footer: ReactNode
}) {
  const { toast } = useToast()
  const methods = useMfaMethods()
  const [chosen, setChosen] = useState<Method>()
  const [texting, setTexting] = useState(false)

  if (!methods) return <Spinner label="Loading" className="self-center" />
  const offered = methods.methods as Method[]
  const method: Method = chosen ?? offered[0] ?? 'sms'

  const switchTo = async (next: Method) => {
    if (next === 'sms') {
      setTexting(true)
      try {
        const result = await sendOtp()
        if (!result.success) {
          toast({ message: result.error, severity: 'error', autoDismiss: true })
          return
        }
      } catch (error) {
        toast({ message: unexpectedError(error), severity: 'error', autoDismiss: true })
        return
      } finally {
        setTexting(false)
      }
    }
    setChosen(next)
  }

  const others = offered.filter((m) => m !== method)
  const alternatives = others.length ? (
    <div className="flex flex-col items-center gap-2 border-t border-line pt-4 text-sm">
      {others.map((other) => (
        <button
          key={other}
          type="button"
          onClick={() => void switchTo(other)}
          disabled={texting}
          aria-busy={(other === 'sms' && texting) || undefined}
          className={linkClassName({ className: 'disabled:cursor-progress disabled:opacity-70' })}
        >
          {SWITCH_LABELS[other]}
        </button>
      ))}
    </div>
  ) : null

  return (
    <div className="flex flex-col gap-8">
      {method === 'passkey' ? (
        <>
          <AuthHeader title="Confirm it’s you">
            Use the passkey on this device, or on your phone, to finish signing in.
          </AuthHeader>
          <PasskeyButton onVerified={onVerified} />
        </>
      ) : method === 'totp' ? (
        <>
          <AuthHeader title="Enter your authenticator code">
            Open your authenticator app and enter the 6-digit code it shows for {config.productName}
            .
          </AuthHeader>
          <MfaCodeForm key="totp" method="totp" onVerified={onVerified} />
        </>
      ) : method === 'recovery' ? (
        <>
          <AuthHeader title="Use a recovery code">
            Enter one of the recovery codes you saved when you set up two-step verification. Each
            code works once.
          </AuthHeader>
          <MfaCodeForm key="recovery" method="recovery" onVerified={onVerified} />
        </>
      ) : (
        <>
          <AuthHeader title="Check your phone">
            We sent a 6-digit verification code to {phoneNamed(methods.phone_hint)}. Enter it below
            to finish signing in.
          </AuthHeader>
          <MfaCodeForm key="sms" onVerified={onVerified} />
        </>
      )}
      {alternatives}
      {footer}
    </div>
  )
}

/** The phone the code went to: by its last digits when the server gives them (`•••-•••-••42`). */
function phoneNamed(hint: string): string {
  const digits = hint.replace(/\D/g, '')
  return digits ? `the phone number ending in ${digits}` : 'the phone number on your account'
}

/** The user's factors, asked for once when the step opens. */
function useMfaMethods(): MfaMethods | undefined {
  const [methods, setMethods] = useState<MfaMethods>()
  useEffect(() => {
    let current = true
    void mfaMethods().then((answer) => current && setMethods(answer))
    return () => {
      current = false
    }
  }, [])
  return methods
}

function PasskeyButton({ onVerified }: { onVerified: () => Promise<void> }) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string>()
  const verify = async () => {
    setBusy(true)
    setError(undefined)
    try {
      const result = await verifyMfaWithPasskey()
      if (!result.success) return setError(result.error)
      await onVerified()
    } catch (failure) {
      setError(unexpectedError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <div className="flex flex-col gap-4">
      <FormError message={error} />
      <Button fullWidth icon={<KeyRound />} loading={busy} onClick={verify} autoFocus>
        Use passkey
      </Button>
    </div>
  )
}
