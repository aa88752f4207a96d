import { Plus } from 'lucide-react'
import type { ReactNode } from 'react'
import { NavLink } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { Avatar, cx, focusRing } from '@/design-system'
import { INTRO_SURVEY_ID, INTRO_SURVEY_NAME, useRequestDrawer } from '@/features/request-drawer'
import { NAV_ITEMS, type NavItem } from './navItems'
import { NavCount, NavLabel, useUnreadRequestCount } from './unread'
import { useShownCurrent } from './useShownCurrent'

/**
 * The fixed bottom bar on small screens, with the create-request button in the middle: it opens
 * the request drawer on the intro survey (spec §9: 603). Requests shows how many have an unread
 * reply.
 */
export function BottomNav({ user }: { user: CurrentUser }) {
  const requestDrawer = useRequestDrawer()
  const unread = useUnreadRequestCount()
  const [dashboard, requests, offerings] = NAV_ITEMS
  return (
    <nav
      aria-label="Main"
      className="fixed inset-x-0 bottom-0 z-overlay border-t border-line bg-surface/95 pb-[env(safe-area-inset-bottom)] shadow-[0_-4px_16px_-8px_rgb(31_28_26/0.15)] backdrop-blur-md sm:hidden [html[data-keyboard-open]_&]:hidden"
    >
      <ul className="mx-auto grid h-16 max-w-md grid-cols-5 items-stretch">
        <ItemLink item={dashboard} />
        <ItemLink item={requests} count={requests.countsUnread ? unread : 0} />
        <li className="flex items-start justify-center">
          <button
            type="button"
            aria-label="Create a request"
            onClick={() =>
              requestDrawer.open({ surveyId: INTRO_SURVEY_ID, surveyName: INTRO_SURVEY_NAME })
            }
            className={cx(
              '-mt-5 inline-flex size-14 items-center justify-center rounded-full bg-accent-600 text-white shadow-lg ring-4 ring-canvas',
              'transition-transform hover:bg-accent-700 active:scale-95 motion-reduce:transition-none',
              focusRing,
            )}
          >
            <Plus aria-hidden="true" className="size-7" strokeWidth={2.5} />
          </button>
        </li>
        <ItemLink item={offerings} />
        <BarLink
          to="/account"
          label="Account"
          graphic={<Avatar initials={user.initials} size="sm" />}
        />
      </ul>
    </nav>
  )
}

function ItemLink({
  item: { to, label, shortLabel, icon: Icon },
  count = 0,
}: {
  item: NavItem
  count?: number
}) {
  return (
    <BarLink
      to={to}
      label={label}
      shortLabel={shortLabel}
      count={count}
      graphic={
        <span className="relative inline-flex h-7 w-12 items-center justify-center rounded-full transition-colors group-[.nav-current]:bg-primary-50">
          <Icon aria-hidden="true" className="size-5" />
          <NavCount count={count} className="absolute -top-1.5 right-0 ring-2 ring-surface" />
        </span>
      }
    />
  )
}

interface BarLinkProps {
  to: string
  label: string
  shortLabel?: string
  /** Unread requests, said after the label ('Requests, 2 unread'). */
  count?: number
  graphic: ReactNode
}

function BarLink({ to, label, shortLabel, count = 0, graphic }: BarLinkProps) {
  const shownCurrent = useShownCurrent()
  return (
    <li className="flex">
      <NavLink
        to={to}
        aria-label={shortLabel ? label : undefined}
        className={(link) =>
          cx(
            'group flex flex-1 flex-col items-center justify-center gap-1 rounded-lg text-[0.6875rem] font-semibold leading-none',
            shownCurrent(link) ? 'nav-current text-primary-700' : 'text-ink-muted hover:text-ink',
            focusRing,
          )
        }
      >
        {graphic}
        <span>
          <NavLabel label={shortLabel ?? label} count={count} />
        </span>
      </NavLink>
    </li>
  )
}
