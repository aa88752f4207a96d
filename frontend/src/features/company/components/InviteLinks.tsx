import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Link2, Link2Off } from 'lucide-react'
import { useRef, useState } from 'react'
import {
  Button,
  ConfirmDialog,
  CopyField,
  FormError,
  Paragraph,
  RetryAlert,
  Skeleton,
  TextInput,
  useToast,
} from '@/design-system'
import { formatDate } from '@/lib/format'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { maxLength, schema } from '@/lib/validation'
import {
  type Invite,
  type InviteCreated,
  inviteCreate,
  inviteRevoke,
  invitesQuery,
  MembersApiError,
} from '../api'

const LABEL_MAX = 200
const USES_MAX = 10_000
const DAYS_MAX = 90

/** A whole number from `min` to `max` (the server checks the same). */
const wholeNumber =
  (min: number, max: number, message: string) =>
  (value: string): string | undefined =>
    /^\d+$/.test(value.trim()) && Number(value) >= min && Number(value) <= max ? undefined : message

type InviteForm = { label: string; maxUses: string; validDays: string }
const inviteSchema = schema<InviteForm>(
  {
    label: [maxLength(LABEL_MAX, `Please use at most ${LABEL_MAX} characters.`)],
    maxUses: [wholeNumber(1, USES_MAX, `Enter a number from 1 to ${USES_MAX.toLocaleString()}`)],
    validDays: [wholeNumber(1, DAYS_MAX, `Enter a number of days from 1 to ${DAYS_MAX}`)],
  },
  { trim: ['label', 'maxUses', 'validDays'] },
)

const POLICY_NOTES: Record<string, string> = {
  invite: 'People join your company with an invite link: share one per person or per team.',
  open: 'Anyone with your sign-up link can join, so invite links are not needed right now.',
  email_domain:
    'People join with a work email address at your domains, so invite links are not needed right now.',
  roster: 'Only people on your roster can join, so invite links are not needed right now.',
}

function inviteState(invite: Invite): string {
  if (invite.revoked_at) return 'Revoked'
  if (invite.use_count >= invite.max_uses) return 'Used up'
  if (!invite.usable) return 'Expired'
  return 'Active'
}

/** The link just made: shown this once (only its hash is kept), with a Copy button. */
function NewLink({ created, onCopied }: { created: InviteCreated; onCopied: () => void }) {
  return (
    <div className="rounded-2xl border border-primary-200 bg-primary-50 p-4">
      <CopyField
        id="new-invite-link"
        label={`Your new invite link${created.invite.label ? ` for ${created.invite.label}` : ''}`}
        value={created.link}
        note="Copy it now: it is shown only this once."
        autoFocus
        buttonText="Copy link"
        buttonVariant="primary"
        onCopied={onCopied}
      />
    </div>
  )
}

/** Invite links: make one (label, how many people, how long), copy it, see and revoke them. */
export function InviteLinks({ companyId }: { companyId: number }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const invites = useQuery(invitesQuery(companyId))
  const [created, setCreated] = useState<InviteCreated | null>(null)
  const [serverError, setServerError] = useState<string>()
  const [revoking, setRevoking] = useState<Invite | null>(null)
  const heading = useRef<HTMLHeadingElement>(null)

  const { field, errors, submitting, onSubmit } = useSchemaForm(
    inviteSchema,
    async ({ label, maxUses, validDays }) => {
      setServerError(undefined)
      try {
        const made = await inviteCreate(companyId, {
          label,
          max_uses: Number(maxUses),
          valid_days: Number(validDays),
        })
        setCreated(made)
        await queryClient.invalidateQueries({ queryKey: invitesQuery(companyId).queryKey })
      } catch (error) {
        setServerError(error instanceof MembersApiError ? error.message : String(error))
      }
    },
    { label: '', maxUses: '1', validDays: '14' },
  )

  const revoke = useMutation({
    mutationFn: (invite: Invite) => inviteRevoke(companyId, invite.id),
    onSuccess: async (invite) => {
      toast({
        message: `The invite link${invite.label ? ` for ${invite.label}` : ''} no longer works.`,
        severity: 'success',
        autoDismiss: true,
      })
      if (created?.invite.id === invite.id) setCreated(null)
      await queryClient.invalidateQueries({ queryKey: invitesQuery(companyId).queryKey })
      heading.current?.focus()
    },
    onError: (error) => toast({ message: (error as Error).message, severity: 'error' }),
  })

  return (
    <section aria-labelledby="invite-links" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2
          id="invite-links"
          ref={heading}
          tabIndex={-1}
          className="text-lg font-semibold text-ink outline-none"
        >
          Invite links
        </h2>
        {invites.data ? (
          <Paragraph size="sm" tone="muted">
            {POLICY_NOTES[invites.data.join_policy]}
          </Paragraph>
        ) : null}
      </div>

      <form
        noValidate
        onSubmit={onSubmit}
        aria-label="New invite link"
        className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
      >
        <div className="grid gap-4 sm:grid-cols-[2fr_1fr_1fr]">
          <TextInput
            label="Who it is for"
            description="E.g. a name or “Sales team”."
            error={errors.label}
            {...field('label')}
          />
          <TextInput
            label="People who may join"
            required
            inputMode="numeric"
            error={errors.maxUses}
            {...field('maxUses')}
          />
          <TextInput
            label="Works for (days)"
            required
            inputMode="numeric"
            error={errors.validDays}
            {...field('validDays')}
          />
        </div>
        <FormError message={serverError} />
        <Button type="submit" icon={<Link2 />} loading={submitting} className="self-start">
          Create invite link
        </Button>
      </form>

      {created ? (
        <NewLink
          key={created.invite.id}
          created={created}
          onCopied={() =>
            toast({ message: 'Invite link copied.', severity: 'success', autoDismiss: true })
          }
        />
      ) : null}

      {invites.isPending ? (
        <Skeleton height="4rem" className="rounded-2xl" />
      ) : invites.isError ? (
        <RetryAlert message={invites.error.message} onRetry={() => void invites.refetch()} />
      ) : invites.data.invites.length === 0 ? (
        <Paragraph size="sm" tone="muted">
          No invite links yet.
        </Paragraph>
      ) : (
        <ul className="flex flex-col divide-y divide-line rounded-2xl border border-line bg-surface shadow-xs">
          {invites.data.invites.map((invite) => (
            <li
              key={invite.id}
              className="flex flex-col gap-2 p-4 sm:flex-row sm:items-center sm:justify-between"
            >
              <div className="min-w-0">
                <p className="truncate font-semibold text-ink">
                  {invite.label || 'Invite link'}{' '}
                  <span className="text-sm font-normal text-ink-muted">
                    · {inviteState(invite)}
                  </span>
                </p>
                <p className="text-sm text-ink-muted">
                  {invite.use_count} of {invite.max_uses} used · made{' '}
                  {formatDate(invite.created_at)} · {invite.revoked_at ? 'revoked' : 'until'}{' '}
                  {formatDate(invite.revoked_at ?? invite.expires_at)}
                </p>
              </div>
              {invite.usable ? (
                <Button
                  size="sm"
                  variant="danger"
                  icon={<Link2Off />}
                  className="self-start sm:self-center"
                  aria-label={`Revoke ${invite.label || 'invite link'}`}
                  loading={revoke.isPending && revoke.variables?.id === invite.id}
                  onClick={() => setRevoking(invite)}
                >
                  Revoke
                </Button>
              ) : null}
            </li>
          ))}
        </ul>
      )}

      <ConfirmDialog
        isOpen={revoking !== null}
        message={`Revoke ${revoking?.label ? `the invite link for ${revoking.label}` : 'this invite link'}?`}
        description="It stops working at once. People who already joined with it keep their access."
        confirmLabel="Revoke link"
        cancelLabel="Keep it"
        destructive
        onCancel={() => setRevoking(null)}
        onConfirm={() => {
          if (revoking) revoke.mutate(revoking)
          setRevoking(null)
        }}
      />
    </section>
  )
}
