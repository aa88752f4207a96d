import type { CurrentUser } from '@/api/client'
import { BroughtToYouBy, Link } from '@/design-system'
import { config } from '@/lib/config'
import { useLegalLinks } from '@/lib/site'

/**
 * The footer: support and the legal links (TERMS_URL, PRIVACY_URL) on every screen size, and
 * the 'Brought to you by' block on sm and wider (small screens show it on the Dashboard). On
 * small screens it clears the bottom navigation bar.
 */
export function AppFooter({ user }: { user: CurrentUser }) {
  const legal = useLegalLinks()
  return (
    <footer className="border-t border-line bg-surface">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-5 pt-6 pb-24 sm:px-6 sm:py-8 md:flex-row md:items-end md:justify-between">
        <div className="hidden sm:block">
          <BroughtToYouBy companies={user.companies} />
        </div>
        <div className="flex flex-col gap-2 text-sm text-ink-muted md:items-end">
          <p>
            Need help? <Link href={`mailto:${config.supportEmail}`}>{config.supportEmail}</Link>
          </p>
          {legal ? (
            <nav aria-label="Legal" className="flex flex-wrap gap-x-4 gap-y-1">
              <Link href={legal.terms_url}>Terms of Use</Link>
              <Link href={legal.privacy_url}>Privacy Policy</Link>
            </nav>
          ) : null}
        </div>
      </div>
    </footer>
  )
}
