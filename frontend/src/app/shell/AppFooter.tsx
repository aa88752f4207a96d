import type { CurrentUser } from '@/api/client'
import { BroughtToYouBy, Link } from '@/design-system'
import { config } from '@/lib/config'
import { useLegalLinks } from '@/lib/site'

/** The footer on sm and wider screens: the 'Brought to you by' block, support and legal links. */
export function AppFooter({ user }: { user: CurrentUser }) {
  const legal = useLegalLinks()
  return (
    <footer className="hidden border-t border-line bg-surface sm:block">
      <div className="mx-auto flex max-w-6xl flex-col gap-6 px-6 py-8 md:flex-row md:items-end md:justify-between">
        <BroughtToYouBy companies={user.companies} />
        <div className="flex flex-col gap-2 text-sm text-ink-muted md:items-end">
          <p>
            Need help? <Link href={`mailto:${config.supportEmail}`}>{config.supportEmail}</Link>
          </p>
          {legal ? (
            <nav aria-label="Legal" className="flex gap-4">
              <Link href={legal.terms_url}>Terms of Use</Link>
              <Link href={legal.privacy_url}>Privacy Policy</Link>
            </nav>
          ) : null}
        </div>
      </div>
    </footer>
  )
}
