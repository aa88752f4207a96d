import { useEffect, useState } from 'react'
import { Button, FormError, Paragraph, Spinner, TextInput } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type Added, type TotpEnrolment, totpEnrolConfirm, totpEnrolStart } from '../api'
import { type MfaCodeValues, totpCodeSchema } from '../rules'

/**
 * Adding an authenticator app: scan the QR code (or type the key), then confirm with the app's
 * current code. `onAdded` gets the recovery codes when this was the first app or passkey, and
 * the session's MFA token when the session had none (to store with `session.setMfaToken`).
 */
export function TotpSetup({
  onAdded,
  onCancel,
  onConfirmFirst,
}: {
  onAdded: (added: Added) => void
  onCancel?: () => void
  /** The person must confirm it is them before adding it (the start was refused). */
  onConfirmFirst?: () => void
}) {
  const [enrolment, setEnrolment] = useState<TotpEnrolment>()
  const [startError, setStartError] = useState<string>()
  const [serverError, setServerError] = useState<string>()
  const { field, errors, submitting, onSubmit } = useSchemaForm<MfaCodeValues>(
    totpCodeSchema,
    async ({ code }) => {
      if (!enrolment) return
      setServerError(undefined)
      try {
        const result = await totpEnrolConfirm(enrolment.factor_id, code, '')
        if (!result.ok) return setServerError(result.error)
        onAdded(result.value)
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )

  // biome-ignore lint/correctness/useExhaustiveDependencies: started once, when shown; a new callback starts no other setup
  useEffect(() => {
    let live = true
    totpEnrolStart()
      .then((result) => {
        if (!live) return
        if (result.ok) setEnrolment(result.value)
        else if (result.confirmFirst && onConfirmFirst) onConfirmFirst()
        else setStartError(result.error)
      })
      .catch((error: unknown) => live && setStartError(unexpectedError(error)))
    return () => {
      live = false
    }
  }, [])

  if (startError) {
    return (
      <div className="flex flex-col gap-4">
        <FormError message={startError} />
        {onCancel ? (
          <Button variant="tertiary" className="self-start" onClick={onCancel}>
            Cancel
          </Button>
        ) : null}
      </div>
    )
  }
  if (!enrolment) return <Spinner label="Preparing your setup" />

  const groupedKey = enrolment.secret.match(/.{1,4}/g)?.join(' ') ?? enrolment.secret
  return (
    <div className="flex flex-col gap-5" data-testid="totp-setup">
      <ol className="flex list-decimal flex-col gap-4 pl-5 text-ink marker:font-semibold marker:text-primary-700">
        <li>
          <Paragraph>
            Open your authenticator app (such as Google Authenticator, Microsoft Authenticator or
            1Password) and scan this QR code.
          </Paragraph>
          <img
            src={enrolment.qr_data_uri}
            alt="QR code to add your account to an authenticator app"
            className="mt-3 size-44 rounded-xl border border-line bg-white p-2"
          />
          <Paragraph tone="muted" size="sm" className="mt-3">
            Can’t scan it? Enter this key instead:
          </Paragraph>
          <code
            data-testid="totp-secret"
            data-secret={enrolment.secret}
            className="mt-1 block break-all rounded-lg bg-neutral-100 px-3 py-2 font-mono text-sm tracking-wider text-ink"
          >
            {groupedKey}
          </code>
        </li>
        <li>
          <Paragraph>Enter the 6-digit code the app shows.</Paragraph>
        </li>
      </ol>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-4">
        <TextInput
          label="Code from the app"
          required
          inputMode="numeric"
          autoComplete="one-time-code"
          error={errors.code}
          inputClassName="tracking-[0.3em] tabular-nums"
          {...field('code')}
        />
        <FormError message={serverError} />
        <div className="flex flex-wrap gap-3">
          <Button type="submit" loading={submitting}>
            Turn on
          </Button>
          {onCancel ? (
            <Button variant="tertiary" onClick={onCancel}>
              Cancel
            </Button>
          ) : null}
        </div>
      </form>
    </div>
  )
}
