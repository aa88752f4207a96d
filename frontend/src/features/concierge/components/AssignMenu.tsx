import { useQuery } from '@tanstack/react-query'
import { Check, ChevronDown, UserRoundCog } from 'lucide-react'
import { Button as AriaButton, Menu, MenuItem, MenuTrigger, Popover } from 'react-aria-components'
import { cx, focusRingAria, Spinner } from '@/design-system'
import { conciergesQuery, type Person } from '../api'

const UNASSIGNED = 'unassigned'
const RETRY = 'retry'

/** 'Assign': a menu of every concierge, plus 'Unassigned'. */
export function AssignMenu({
  assignee,
  myId,
  pending,
  onAssign,
}: {
  assignee: Person | null
  myId: number | null
  pending: boolean
  onAssign: (assigneeId: number | null) => void
}) {
  const concierges = useQuery(conciergesQuery)
  const current = assignee ? String(assignee.id) : UNASSIGNED
  const items = [
    { id: UNASSIGNED, label: 'Unassigned' },
    ...(concierges.data ?? []).map((c) => ({
      id: String(c.id),
      label: c.id === myId ? `${c.full_name} (me)` : c.full_name,
    })),
  ]
  return (
    <MenuTrigger>
      <AriaButton
        isDisabled={pending}
        className={cx(
          'inline-flex min-h-9 items-center gap-2 rounded-full border border-line-strong bg-surface px-3.5 py-1.5 text-sm font-semibold text-ink shadow-xs',
          'hover:bg-neutral-100 disabled:cursor-not-allowed disabled:opacity-60',
          focusRingAria,
        )}
      >
        {pending ? <Spinner size="sm" /> : <UserRoundCog aria-hidden="true" className="size-4" />}
        Assign
        <ChevronDown aria-hidden="true" className="size-4" />
      </AriaButton>
      <Popover
        placement="bottom end"
        offset={6}
        className="z-menu min-w-56 overflow-auto rounded-xl border border-line bg-surface p-1 shadow-lg outline-none"
      >
        <Menu
          aria-label="Assign to"
          className="max-h-80 outline-none"
          onAction={(key) => {
            const id = String(key)
            if (id === RETRY) {
              void concierges.refetch()
              return
            }
            if (id === current) return
            onAssign(id === UNASSIGNED ? null : Number(id))
          }}
        >
          {items.map((item) => (
            <MenuItem
              key={item.id}
              id={item.id}
              textValue={item.label}
              className={cx(
                'flex cursor-pointer items-center justify-between gap-3 rounded-lg px-3 py-2 text-sm text-ink outline-none',
                'data-[focused]:bg-primary-50 data-[focused]:text-primary-800',
              )}
            >
              <span>
                {item.label}
                {item.id === current ? <span className="sr-only"> (current)</span> : null}
              </span>
              {item.id === current ? (
                <Check aria-hidden="true" className="size-4 text-primary-700" />
              ) : null}
            </MenuItem>
          ))}
          {concierges.isError && !concierges.data ? (
            <MenuItem
              id={RETRY}
              textValue="We couldn’t load the concierges. Try again"
              className={cx(
                'rounded-lg px-3 py-2 text-sm text-danger-700 outline-none',
                'data-[focused]:bg-danger-50',
              )}
            >
              We couldn’t load the concierges. <span className="underline">Try again</span>
            </MenuItem>
          ) : null}
          {concierges.isPending ? (
            <MenuItem
              id="loading"
              isDisabled
              textValue="Loading concierges"
              className="px-3 py-2 text-sm text-ink-muted"
            >
              Loading concierges…
            </MenuItem>
          ) : null}
        </Menu>
      </Popover>
    </MenuTrigger>
  )
}
