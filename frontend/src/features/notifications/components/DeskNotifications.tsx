import { Bell } from 'lucide-react'
import { CheckboxField, cx, focusRing, Paragraph, RetryAlert } from '@/design-system'
import { PREFERENCES_FAILED, PushDevices, useServerPush } from './NotificationsSection'
import { usePreferences } from './usePreferences'

/** The desk's notification menu: push for new requests and for employees' replies. */
export function DeskNotifications() {
  const { query, change } = usePreferences()
  const prefs = query.data
  const pushOffered = useServerPush()
  return (
    <details
      className="group relative"
      onKeyDown={(event) => {
        // Escape closes the menu, as it does the desk's other menus, and focus goes back to it.
        const menu = event.currentTarget
        if (event.key !== 'Escape' || !menu.open) return
        event.stopPropagation()
        menu.open = false
        menu.querySelector('summary')?.focus()
      }}
    >
      <summary
        title="Notifications"
        className={cx(
          'inline-flex cursor-pointer list-none items-center gap-1.5 rounded-full px-2 py-1.5 text-sm font-semibold text-ink-muted hover:text-ink [&::-webkit-details-marker]:hidden',
          focusRing,
        )}
      >
        <Bell aria-hidden="true" className="size-4" />
        <span className="sr-only lg:not-sr-only">Notifications</span>
      </summary>
      <div className="absolute end-0 top-full z-overlay mt-2 flex w-[min(22rem,calc(100vw-2rem))] flex-col max-sm:fixed max-sm:inset-x-4 max-sm:top-auto max-sm:w-auto gap-4 rounded-2xl border border-line bg-surface p-4 shadow-lg">
        <Paragraph size="sm" tone="muted">
          Push notifications to this desk’s browsers.
        </Paragraph>
        {query.isError ? (
          <RetryAlert message={PREFERENCES_FAILED} compact onRetry={() => void query.refetch()} />
        ) : prefs && pushOffered ? (
          <>
            <CheckboxField
              label="New requests"
              hint="Every new request while nobody is assigned."
              checked={prefs.desk_new_request_push}
              onChange={(on) => change({ desk_new_request_push: on })}
            />
            <CheckboxField
              label="Employee replies"
              hint="Replies on your requests, or on unassigned ones."
              checked={prefs.desk_reply_push}
              onChange={(on) => change({ desk_reply_push: on })}
            />
          </>
        ) : null}
        <PushDevices compact />
      </div>
    </details>
  )
}
