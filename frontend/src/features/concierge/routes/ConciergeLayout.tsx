import { LogOut, MessageSquareText, Smile } from 'lucide-react'
import type { ReactNode } from 'react'
import { NavLink, Outlet, Link as RouterLink, useOutletContext } from 'react-router'
import { Avatar, Button, cx, focusRing, Logo, MainContent, SkipLink } from '@/design-system'
import { DeskNotifications } from '@/features/notifications'
import { config } from '@/lib/config'
import type { AuthedContext } from '@/lib/currentUser'
import { useSignOut } from '@/lib/currentUserQuery'
import type { LiveStatus } from '@/lib/events'
import { useConciergeLive } from '../live'

const LIVE_TEXT: Record<LiveStatus, string> = {
  open: 'Live',
  connecting: 'Connecting…',
  down: 'Reconnecting · refreshing every 10 s',
}

/** Whether the queue and the open request update by themselves right now. */
export function LiveIndicator({ status }: { status: LiveStatus }) {
  return (
    <span
      role="status"
      data-live={status}
      className="inline-flex items-center gap-1.5 rounded-full bg-surface-muted p-1.5 text-xs font-semibold text-ink-muted sm:px-2.5 sm:py-1"
    >
      <span
        aria-hidden="true"
        className={cx(
          'size-2 rounded-full',
          status === 'open' && 'bg-success-500',
          status === 'connecting' && 'animate-pulse bg-warning-500 motion-reduce:animate-none',
          status === 'down' && 'bg-danger-500',
        )}
      />
      <span className="sr-only sm:not-sr-only">{LIVE_TEXT[status]}</span>
    </span>
  )
}

/**
 * The concierge desk's shell: a top bar (logo, 'Concierge desk', live status, the concierge's
 * name, Sign out) around the desk's screens, and the one live-events subscription they share.
 */
function DeskNavLink({ to, label, icon }: { to: string; label: string; icon: ReactNode }) {
  return (
    <NavLink
      to={to}
      title={label}
      className={({ isActive }) =>
        cx(
          'inline-flex items-center gap-1.5 rounded-full px-2 py-1.5 text-sm font-semibold [&_svg]:size-4',
          isActive ? 'bg-primary-50 text-primary-800' : 'text-ink-muted hover:text-ink',
          focusRing,
        )
      }
    >
      {icon}
      <span className="sr-only lg:not-sr-only">{label}</span>
    </NavLink>
  )
}

export default function ConciergeLayout() {
  const context = useOutletContext<AuthedContext>()
  const { user } = context
  const live = useConciergeLive()
  const { signingOut, onSignOut } = useSignOut()

  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <SkipLink />
      <header className="sticky top-0 z-overlay border-b border-line bg-surface/95 backdrop-blur-md">
        <nav
          aria-label="Concierge desk"
          className="mx-auto flex h-14 max-w-[96rem] items-center gap-2 px-4 sm:h-16 sm:gap-4 sm:px-6"
        >
          <RouterLink
            to="/concierge"
            className={cx('flex items-center gap-3 rounded-md', focusRing)}
            aria-label="Concierge desk: the queue"
          >
            <Logo productName={config.productName} size="sm" variant="logo" />
            <span className="font-display text-base font-semibold whitespace-nowrap text-ink sm:text-lg">
              Concierge desk
            </span>
          </RouterLink>
          <LiveIndicator status={live} />
          <div className="ms-auto flex items-center gap-1 sm:gap-3">
            <DeskNavLink
              to="/concierge/saved-replies"
              label="Saved replies"
              icon={<MessageSquareText />}
            />
            <DeskNavLink to="/concierge/satisfaction" label="Satisfaction" icon={<Smile />} />
            <DeskNotifications />
            <span className="flex items-center gap-2" title={user.email}>
              <span className="hidden sm:inline-flex">
                <Avatar initials={user.initials} size="sm" />
              </span>
              <span className="hidden text-sm font-semibold text-ink md:inline">
                {user.full_name}
              </span>
              <span className="sr-only md:hidden">{user.full_name}</span>
            </span>
            <Button
              variant="tertiary"
              size="sm"
              icon={<LogOut />}
              loading={signingOut}
              onClick={onSignOut}
              className="whitespace-nowrap max-sm:px-2"
            >
              <span className="max-sm:sr-only">Sign out</span>
            </Button>
          </div>
        </nav>
      </header>
      <MainContent className="max-w-[96rem] px-4 pt-4 pb-16 sm:px-6 sm:pt-8">
        <Outlet context={context} />
      </MainContent>
    </div>
  )
}
