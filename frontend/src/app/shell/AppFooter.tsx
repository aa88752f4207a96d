import type { CurrentUser } from '@/api/client'
import { BroughtToYouBy, Link } from '@/design-system'
import { config } from '@/lib/config'

/** The footer on sm and wider screens, with the 'Brought to you by' block. */
export function AppFooter({ user }: { user: CurrentUser }) {
  return (
    <footer className="hidden border-t border-line bg-surface sm:block">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-6 py-8 md:flex-row md:items-end md:justify-between">
        <BroughtToYouBy companies={user.companies} />
        <p className="text-sm text-ink-muted">
          Need help? <Link href={`mailto:${config.supportEmail}`}>{config.supportEmail}</Link>
        </p>
      </div>
    </footer>
  )
}
