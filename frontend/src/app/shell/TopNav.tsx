import { NavLink, Link as RouterLink } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { Avatar, cx, focusRing, Logo } from '@/design-system'
import { CompanyReportLink } from '@/features/company/components/CompanyReportLink'
import { config } from '@/lib/config'
import { NAV_ITEMS } from './navItems'
import { NavCount, NavLabel, useUnreadRequestCount } from './unread'
import { useShownCurrent } from './useShownCurrent'

/** The top navigation on sm and wider screens; Requests shows how many have an unread reply. */
export function TopNav({ user }: { user: CurrentUser }) {
  const unread = useUnreadRequestCount()
  const shownCurrent = useShownCurrent()
  return (
    <header className="sticky top-0 z-overlay hidden border-b border-line bg-surface/90 backdrop-blur-md sm:block">
      <nav
        aria-label="Main"
        className="mx-auto flex h-16 max-w-6xl items-center gap-4 px-6 lg:gap-8"
      >
        <RouterLink to="/dashboard" className={cx('rounded-md', focusRing)}>
          <Logo productName={config.productName} size="sm" />
        </RouterLink>
        <ul className="flex items-center gap-1">
          {NAV_ITEMS.map(({ to, label, icon: Icon, countsUnread }) => (
            <li key={to}>
              <NavLink
                to={to}
                className={(link) =>
                  cx(
                    'inline-flex items-center gap-2 rounded-full px-3.5 py-2 text-sm font-semibold transition-colors',
                    shownCurrent(link)
                      ? 'bg-primary-50 text-primary-800'
                      : 'text-ink-muted hover:bg-neutral-100 hover:text-ink',
                    focusRing,
                  )
                }
              >
                <Icon aria-hidden="true" className="size-4" />
                <NavLabel label={label} count={countsUnread ? unread : 0} />
                {countsUnread ? <NavCount count={unread} /> : null}
              </NavLink>
            </li>
          ))}
        </ul>
        <span className="ms-auto">
          <CompanyReportLink />
        </span>
        <NavLink
          to="/account"
          aria-label="Account"
          title={user.full_name}
          className={cx('group rounded-full', focusRing)}
        >
          <Avatar initials={user.initials} />
        </NavLink>
      </nav>
    </header>
  )
}
