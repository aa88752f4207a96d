import { useQuery, useQueryClient } from '@tanstack/react-query'
import { KeyRound, MessageSquareText, Plus, ShieldCheck, Smartphone } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useNavigate } from 'react-router'
import {
  Button,
  FormError,
  Paragraph,
  RetryAlert,
  Skeleton,
  TextInput,
  useToast,
} from '@/design-system'
import {
  FACTOR_LABELS,
  type FreshCheck,
  factorRemove,
  type MfaFactor,
  mfaFactorsQuery,
  passkeyRegister,
  passkeysSupported,
  RecoveryCodes,
  recoveryCodesRegenerate,
  sessionConfirm,
  TotpSetup,
} from '@/features/mfa'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { unexpectedError } from '@/lib/errors'
import { relativeTime } from '@/lib/format'
import { session } from '@/lib/session'
import { factorRename } from '../api'
import { freshCheck, PROOF_MESSAGES, ProofField } from './ProofField'
import { SettingsSection } from './SettingsSection'

type Addition = 'passkey' | 'totp' | 'sms'

type Mode =
  | { name: 'list' }
  | { name: 'confirm'; adding: Addition }
  | { name: 'totp' }
  | { name: 'codes'; codes: string[] }
  | { name: 'remove'; factor: MfaFactor }
  | { name: 'regenerate' }

const CONFIRM_FIRST = 'To add a sign-in method, please confirm it’s you first.'

const ICONS: Record<string, ReactNode> = {
  passkey: <KeyRound aria-hidden="true" className="size-5" />,
  totp: <Smartphone aria-hidden="true" className="size-5" />,
  sms: <MessageSquareText aria-hidden="true" className="size-5" />,
}

/** Two-step verification on the Account page: the user's factors, adding and removing them,
 * and the recovery codes. */
export function TwoStepSection() {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const factors = useQuery(mfaFactorsQuery)
  const [mode, setMode] = useState<Mode>({ name: 'list' })
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  const [passkeyError, setPasskeyError] = useState<string>()
  const addRef = useRef<HTMLDivElement>(null)
  const navigate = useNavigate()

  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: mfaFactorsQuery.queryKey }),
      queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey }),
    ])
  }
  // The add button last used, to give the focus back to when its panel closes.
  const lastAdded = useRef<Addition | null>(null)
  const backToList = () => {
    setMode({ name: 'list' })
    requestAnimationFrame(() => {
      const buttons = addRef.current
      const used =
        lastAdded.current &&
        buttons?.querySelector<HTMLElement>(`[data-add="${lastAdded.current}"]`)
      ;(used || buttons?.querySelector<HTMLElement>('button, a'))?.focus()
    })
  }
  const added = async (codes: string[] | null, what: string) => {
    await refresh()
    toast({ message: `${what} added.`, severity: 'success', autoDismiss: true })
    if (codes) setMode({ name: 'codes', codes })
    else backToList()
  }
  const addPasskey = async () => {
    setPasskeyError(undefined)
    setPasskeyBusy(true)
    try {
      const result = await passkeyRegister('')
      if (result.ok) await added(result.value, 'Passkey')
      else if (result.confirmFirst) confirmFirst('passkey')
      else setPasskeyError(result.error)
    } catch (error) {
      setPasskeyError(unexpectedError(error))
    } finally {
      setPasskeyBusy(false)
    }
  }

  const startAdding = (adding: Addition) => {
    if (adding === 'passkey') void addPasskey()
    else if (adding === 'totp') setMode({ name: 'totp' })
    else navigate('/mfa-enrollment', { state: { from: 'account' } })
  }
  // Adding a way to sign in needs a recent proof of the person (signed in, or confirmed again).
  // The list's `add_needs_confirm` may be older than the proof's 15 minutes: a refused start
  // asks for the proof then.
  const confirmFirst = (adding: Addition) => {
    void queryClient.invalidateQueries({ queryKey: mfaFactorsQuery.queryKey })
    setMode({ name: 'confirm', adding })
  }
  const add = (adding: Addition) => {
    lastAdded.current = adding
    if (factors.data?.add_needs_confirm) setMode({ name: 'confirm', adding })
    else startAdding(adding)
  }

  if (mode.name === 'totp') {
    return (
      <SettingsSection title="Add an authenticator app" focusTitle>
        <TotpSetup
          onAdded={({ recoveryCodes, mfaToken }) => {
            if (mfaToken) session.setMfaToken(mfaToken)
            return added(recoveryCodes, 'Authenticator app')
          }}
          onCancel={backToList}
          onConfirmFirst={() => confirmFirst('totp')}
        />
      </SettingsSection>
    )
  }
  if (mode.name === 'codes') {
    return (
      <SettingsSection title="Two-step verification">
        <RecoveryCodes codes={mode.codes} onDone={backToList} />
      </SettingsSection>
    )
  }

  const data = factors.data
  const list = data?.factors ?? []
  const hasStrong = list.some((f) => f.kind !== 'sms')
  const hasSms = list.some((f) => f.kind === 'sms')
  return (
    <SettingsSection title="Two-step verification">
      {factors.isPending ? (
        <Skeleton className="h-16 w-full rounded-xl" />
      ) : factors.isError ? (
        <RetryAlert
          message="We couldn’t load your sign-in methods."
          compact
          onRetry={() => void factors.refetch()}
        />
      ) : list.length ? (
        <>
          <p className="flex items-center gap-2 font-medium text-success-700">
            <ShieldCheck aria-hidden="true" className="size-5" />
            Two-step verification is on.
          </p>
          <ul className="flex flex-col divide-y divide-line rounded-xl border border-line">
            {list.map((factor) => (
              <FactorRow
                key={factor.id}
                factor={factor}
                removing={mode.name === 'remove' && mode.factor.id === factor.id}
                onRemove={() => setMode({ name: 'remove', factor })}
                onCancel={backToList}
                onRemoved={async () => {
                  await refresh()
                  toast({
                    message: `${FACTOR_LABELS[factor.kind] ?? 'Sign-in method'} removed.`,
                    severity: 'success',
                    autoDismiss: true,
                  })
                  backToList()
                }}
              />
            ))}
          </ul>
        </>
      ) : (
        <Paragraph tone="muted">
          Add a second step to signing in: a passkey on this device, a code from an authenticator
          app, or a code we text to your phone.
        </Paragraph>
      )}
      {data?.company_requires_mfa ? (
        <Paragraph tone="muted" size="sm">
          Your employer requires two-step verification, so you need to keep at least one method.
        </Paragraph>
      ) : null}
      {hasStrong && data ? (
        <div className="flex flex-col gap-3 rounded-xl bg-neutral-50 p-4">
          <p className="text-sm text-ink">
            <span className="font-semibold">Recovery codes:</span> {data.recovery_codes_left} of 10
            left
          </p>
          {mode.name === 'regenerate' ? (
            <FreshCheckForm
              action="Get new codes"
              onCancel={backToList}
              submit={async (check) => {
                const result = await recoveryCodesRegenerate(check)
                if (!result.ok) return result.error
                await refresh()
                setMode({ name: 'codes', codes: result.value })
              }}
            />
          ) : (
            <Button
              variant="tertiary"
              size="sm"
              className="self-start"
              onClick={() => setMode({ name: 'regenerate' })}
            >
              Get new recovery codes
            </Button>
          )}
        </div>
      ) : null}
      {factors.isError ? null : mode.name === 'confirm' ? (
        <div className="flex flex-col gap-3 rounded-xl border border-line p-4">
          <Paragraph size="sm">{CONFIRM_FIRST}</Paragraph>
          <FreshCheckForm
            action="Continue"
            onCancel={backToList}
            submit={async (check) => {
              const result = await sessionConfirm(check)
              if (!result.ok) return result.error
              await queryClient.invalidateQueries({ queryKey: mfaFactorsQuery.queryKey })
              setMode({ name: 'list' })
              startAdding(mode.adding)
            }}
          />
        </div>
      ) : (
        <div ref={addRef} className="flex flex-wrap gap-3">
          {passkeysSupported() ? (
            <Button
              variant="secondary"
              icon={<KeyRound />}
              loading={passkeyBusy}
              data-add="passkey"
              onClick={() => add('passkey')}
            >
              Add a passkey
            </Button>
          ) : null}
          <Button
            variant="secondary"
            icon={<Smartphone />}
            data-add="totp"
            onClick={() => add('totp')}
          >
            Add an authenticator app
          </Button>
          {!hasSms ? (
            <Button variant="secondary" icon={<Plus />} data-add="sms" onClick={() => add('sms')}>
              Add text messages
            </Button>
          ) : null}
        </div>
      )}
      <FormError message={passkeyError} />
    </SettingsSection>
  )
}

function FactorRow({
  factor,
  removing,
  onRemove,
  onCancel,
  onRemoved,
}: {
  factor: MfaFactor
  removing: boolean
  onRemove: () => void
  onCancel: () => void
  onRemoved: () => Promise<void>
}) {
  const [renaming, setRenaming] = useState(false)
  const renameButton = useRef<HTMLButtonElement>(null)
  const added = factor.created_at ? `Added ${relativeTime(factor.created_at).toLowerCase()}` : null
  const used = factor.last_used_at
    ? `last used ${relativeTime(factor.last_used_at).toLowerCase()}`
    : 'not used yet'
  const wasRenaming = useRef(false)
  useEffect(() => {
    // Closing the name's form gives the focus back to its Rename button, once it is rendered.
    if (wasRenaming.current && !renaming) renameButton.current?.focus()
    wasRenaming.current = renaming
  }, [renaming])
  const renameDone = () => setRenaming(false)
  return (
    <li className="flex flex-col gap-3 p-4" data-testid={`factor-${factor.kind}`}>
      <div className="flex flex-wrap items-center gap-3">
        <span className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-primary-50 text-primary-700">
          {ICONS[factor.kind]}
        </span>
        <div className="min-w-0 flex-1">
          <p className="truncate font-medium text-ink">{factor.name}</p>
          <p className="text-sm text-ink-muted">
            {factor.name === FACTOR_LABELS[factor.kind] ? '' : `${FACTOR_LABELS[factor.kind]} · `}
            {added ? `${added}, ${used}` : used.charAt(0).toUpperCase() + used.slice(1)}
          </p>
        </div>
        {removing || renaming ? null : (
          <div className="flex gap-1">
            {factor.kind === 'sms' ? null : (
              <Button
                ref={renameButton}
                variant="tertiary"
                size="sm"
                onClick={() => setRenaming(true)}
                aria-label={`Rename ${factor.name}`}
              >
                Rename
              </Button>
            )}
            <Button
              variant="tertiary"
              size="sm"
              onClick={onRemove}
              aria-label={`Remove ${factor.name}`}
            >
              Remove
            </Button>
          </div>
        )}
      </div>
      {renaming ? <RenameForm factor={factor} onDone={renameDone} /> : null}
      {removing ? (
        <FreshCheckForm
          action="Remove"
          onCancel={onCancel}
          submit={async (check) => {
            const result = await factorRemove(factor.id, check)
            if (!result.ok) return result.error
            await onRemoved()
          }}
        />
      ) : null}
    </li>
  )
}

/** A name for a passkey or an authenticator app ("Work laptop"), to tell them apart. */
function RenameForm({ factor, onDone }: { factor: MfaFactor; onDone: () => void }) {
  const queryClient = useQueryClient()
  const [name, setName] = useState(factor.name)
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  // An error takes the focus to its field, which reads it out (not the Save button).
  const input = useRef<HTMLInputElement>(null)
  useEffect(() => {
    if (error) input.current?.focus()
  }, [error])
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!name.trim()) return setError('Please enter a name')
    setBusy(true)
    setError(undefined)
    try {
      const saved = await factorRename(factor.id, name.trim())
      if (!saved.ok) return setError(saved.fields.name?.[0] ?? saved.error)
      await queryClient.invalidateQueries({ queryKey: mfaFactorsQuery.queryKey })
      onDone()
    } catch (failure) {
      setError(unexpectedError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      <TextInput
        ref={input}
        name="factor-name"
        label="Name"
        description="For example, the device it is on."
        required
        autoFocus
        maxLength={100}
        value={name}
        error={error}
        onChange={(event) => setName(event.target.value)}
      />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" loading={busy}>
          Save name
        </Button>
        <Button variant="tertiary" size="sm" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  )
}

/** Asks again for the password (or a code from another sign-in method) before a change. */
function FreshCheckForm({
  action,
  submit,
  onCancel,
}: {
  action: string
  submit: (check: FreshCheck) => Promise<string | undefined>
  onCancel: () => void
}) {
  const [useCode, setUseCode] = useState(false)
  const [value, setValue] = useState('')
  const [error, setError] = useState<string>()
  const [busy, setBusy] = useState(false)
  const onSubmit = async (event: React.FormEvent) => {
    event.preventDefault()
    if (!value.trim()) {
      setError(useCode ? PROOF_MESSAGES.code : PROOF_MESSAGES.password)
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      const failure = await submit(freshCheck(useCode, value))
      if (failure) setError(failure)
    } catch (failure) {
      setError(unexpectedError(failure))
    } finally {
      setBusy(false)
    }
  }
  return (
    <form noValidate onSubmit={onSubmit} className="flex flex-col gap-3">
      <ProofField
        name={useCode ? 'code' : 'password'}
        passwordLabel="Confirm with your password"
        useCode={useCode}
        onToggle={() => {
          setUseCode(!useCode)
          setValue('')
          setError(undefined)
        }}
        autoFocus
        value={value}
        onChange={(event) => setValue(event.target.value)}
      />
      <FormError message={error} />
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" size="sm" loading={busy}>
          {action}
        </Button>
        <Button variant="tertiary" size="sm" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
