import { LogOut, Mail } from 'lucide-react'
import type { CurrentUser } from '@/api/client'
import { Avatar, Button, Link, PageHeader, Paragraph } from '@/design-system'
import { NotificationsSection } from '@/features/notifications'
import { DataExportSection } from '@/features/privacy'
import { config } from '@/lib/config'
import { useCurrentUser } from '@/lib/currentUser'
import { useSignOut } from '@/lib/currentUserQuery'
import { DetailsSection } from '../components/DetailsSection'
import { DevicesSection } from '../components/DevicesSection'
import { SettingsSection } from '../components/SettingsSection'
import { TwoStepSection } from '../components/TwoStepSection'

export const CLOSE_ACCOUNT_HREF = `mailto:${config.supportEmail}?subject=${encodeURIComponent('Close my account')}`

/** Account (spec §2): owner, sign out, the account's details (name, email, contact details,
 * password), two-step verification (its sign-in methods), the devices signed in, support and
 * closing the account. */
export default function Account() {
  const user = useCurrentUser()
  return (
    <div className="mx-auto flex w-full max-w-2xl flex-col gap-6">
      <PageHeader title="Account Settings" />
      <Owner user={user} />
      <DetailsSection user={user} />
      <TwoStepSection />
      <DevicesSection />
      <NotificationsSection />
      <DataExportSection />
      <SettingsSection title="Help & support">
        <Paragraph tone="muted">
          Questions about your account or a request? Email us any time at{' '}
          <Link href={`mailto:${config.supportEmail}`}>{config.supportEmail}</Link>.
        </Paragraph>
      </SettingsSection>
      <SettingsSection title="Close Account" tone="danger">
        <Paragraph tone="muted">
          Closing your account deletes your requests and messages. This action cannot be undone.
        </Paragraph>
        <a
          href={CLOSE_ACCOUNT_HREF}
          className="inline-flex min-h-11 items-center gap-2 self-start rounded-full border border-danger-600 px-5 py-2 font-semibold text-danger-700 hover:bg-danger-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
        >
          <Mail aria-hidden="true" className="size-5" />
          Close Account
        </a>
      </SettingsSection>
    </div>
  )
}

function Owner({ user }: { user: CurrentUser }) {
  const { signingOut, onSignOut } = useSignOut()
  return (
    <section
      aria-label="Your account"
      className="flex flex-col gap-5 rounded-2xl border border-line bg-surface p-5 shadow-xs sm:flex-row sm:items-center sm:p-6"
    >
      <div className="flex min-w-0 flex-1 items-center gap-4">
        <Avatar initials={user.initials} size="lg" />
        <div className="min-w-0">
          <p className="truncate text-lg font-semibold text-ink">{user.full_name}</p>
          <p className="truncate text-sm text-ink-muted">{user.email}</p>
        </div>
      </div>
      <Button variant="secondary" icon={<LogOut />} loading={signingOut} onClick={onSignOut}>
        Sign Out
      </Button>
    </section>
  )
}
