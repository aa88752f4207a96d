import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useRef, useState } from 'react'
import type { CurrentUser } from '@/api/client'
import { Button, formatPhone, Paragraph, RetryAlert, Skeleton, useToast } from '@/design-system'
import {
  ContactDetailsForm,
  contactDetailsInitial,
  onboardingAnswersQuery,
} from '@/features/onboarding'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { unexpectedError } from '@/lib/errors'
import { emailChangeCancel } from '../api'
import { DetailRow } from './DetailRow'
import { EmailChangeForm } from './EmailChangeForm'
import { FormActions } from './FormActions'
import { NameForm } from './NameForm'
import { PasswordForm } from './PasswordForm'
import { SettingsSection } from './SettingsSection'

type Editing = 'name' | 'email' | 'contact' | 'password' | null

/** The account's details, each changed in place: name, email, contact details, password. */
export function DetailsSection({ user }: { user: CurrentUser }) {
  const [editing, setEditing] = useState<Editing>(null)
  const emailAction = useRef<HTMLButtonElement>(null)
  const done = () => setEditing(null)
  const row = (name: Exclude<Editing, null>) => ({
    editing: editing === name,
    onEdit: () => setEditing(name),
  })
  return (
    <SettingsSection title="Your details">
      <div className="flex flex-col divide-y divide-line">
        <DetailRow label="Name" value={user.full_name} action="Edit" {...row('name')}>
          <NameForm
            initial={{ firstName: user.first_name, lastName: user.last_name }}
            onDone={done}
          />
        </DetailRow>
        <DetailRow
          label="Email"
          value={user.email}
          notice={<PendingEmail user={user} onCancelled={() => emailAction.current?.focus()} />}
          action="Change"
          actionRef={emailAction}
          {...row('email')}
        >
          <EmailChangeForm onDone={done} />
        </DetailRow>
        <ContactRow user={user} {...row('contact')} onDone={done} />
        <DetailRow
          label="Password"
          value="Changing it signs out your other devices."
          action="Change"
          {...row('password')}
        >
          <PasswordForm onDone={done} />
        </DetailRow>
      </div>
    </SettingsSection>
  )
}

/** The address asked for and not confirmed yet; cancelling it gives the focus to the email's
 * Change button (`onCancelled`), as this notice goes. */
function PendingEmail({ user, onCancelled }: { user: CurrentUser; onCancelled: () => void }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [cancelling, setCancelling] = useState(false)
  if (!user.pending_email) return null
  const cancel = async () => {
    setCancelling(true)
    try {
      const cancelled = await emailChangeCancel()
      if (!cancelled.ok) {
        toast({ message: cancelled.error, severity: 'error' })
        return
      }
      await queryClient.invalidateQueries({ queryKey: currentUserQuery.queryKey })
      onCancelled()
    } catch (error) {
      toast({ message: unexpectedError(error), severity: 'error' })
    } finally {
      setCancelling(false)
    }
  }
  return (
    <div
      role="status"
      className="flex flex-col items-start gap-2 rounded-xl bg-primary-50 p-3 text-sm text-ink sm:flex-row sm:items-center sm:justify-between"
    >
      <span>
        Waiting for confirmation: we sent a link to{' '}
        <span className="font-semibold break-all">{user.pending_email}</span>. Your email changes
        once you open it.
      </span>
      <Button variant="tertiary" size="sm" loading={cancelling} onClick={cancel}>
        Cancel change
      </Button>
    </div>
  )
}

export const CONTACT_DETAILS_FAILED = 'We couldn’t load your contact details.'

function ContactRow({
  user,
  editing,
  onEdit,
  onDone,
}: {
  user: CurrentUser
  editing: boolean
  onEdit: () => void
  onDone: () => void
}) {
  const answers = useQuery(onboardingAnswersQuery)
  const { toast } = useToast()
  if (answers.isPending) return <Skeleton className="my-4 h-12 w-full rounded-xl" />
  // Not loaded: nothing to show or to edit (an empty form saved would erase what is stored).
  if (answers.isError) {
    return (
      <div className="py-4">
        <RetryAlert
          message={CONTACT_DETAILS_FAILED}
          compact
          onRetry={() => void answers.refetch()}
        />
      </div>
    )
  }
  const initial = contactDetailsInitial(answers.data, user.email)
  const address = [
    initial.addressLine1,
    initial.addressLine2,
    initial.city,
    initial.state,
    initial.postalCode,
    initial.country,
  ]
    .filter(Boolean)
    .join(', ')
  return (
    <DetailRow
      label="Contact details"
      value={
        <dl className="grid gap-x-3 sm:grid-cols-[auto_1fr] sm:gap-y-0.5">
          <dt className="text-sm sm:text-base">Phone</dt>
          <dd className="mb-1.5 text-ink sm:mb-0">{formatPhone(initial.phone) || 'Not given'}</dd>
          <dt className="text-sm sm:text-base">Preferred email</dt>
          <dd className="mb-1.5 break-words text-ink sm:mb-0">
            {initial.preferredEmail || 'Not given'}
          </dd>
          <dt className="text-sm sm:text-base">Address</dt>
          <dd className="text-ink">{address || 'Not given'}</dd>
        </dl>
      }
      action="Edit"
      editing={editing}
      onEdit={onEdit}
    >
      <Paragraph size="sm" tone="muted" className="mb-4">
        Your concierge uses these details to book, order and arrange things for you.
      </Paragraph>
      <ContactDetailsForm
        initial={initial}
        onSaved={() => {
          toast({
            message: 'Your contact details are saved.',
            severity: 'success',
            autoDismiss: true,
          })
          onDone()
        }}
        actions={(submitting) => <FormActions submitting={submitting} onCancel={onDone} />}
      />
    </DetailRow>
  )
}
