import { UserCheck, UserX } from 'lucide-react'
import { Button } from '@/design-system'
import { formatDate } from '@/lib/format'
import { useMediaQuery } from '@/lib/useMediaQuery'
import type { Member } from '../api'
import { MemberStatusBadge } from './MemberStatusBadge'

/** The table needs the room of a tablet; below it each person is a card. */
export const TABLE_UP = '(min-width: 48rem)'

export function memberName(member: Member): string {
  return [member.first_name, member.last_name].filter(Boolean).join(' ') || member.email
}

const when = (value: string | null | undefined) => (value ? formatDate(value) : '—')

export interface MembersListProps {
  members: Member[]
  /** The person whose access is being changed (their button shows it). */
  busyId: number | null
  onChange: (member: Member) => void
  /** Each person's action button, so the page can hand the focus back to it. */
  buttonRef: (id: number, element: HTMLButtonElement | null) => void
}

function ActionButton({
  member,
  busy,
  onChange,
  buttonRef,
}: {
  member: Member
  busy: boolean
  onChange: (member: Member) => void
  buttonRef: MembersListProps['buttonRef']
}) {
  if (member.is_me) {
    return <span className="text-sm text-ink-muted">You</span>
  }
  if (member.status === 'closed') return null // erased: nothing left to change
  const name = memberName(member)
  const deactivate = member.status !== 'deactivated'
  return (
    <Button
      ref={(element) => buttonRef(member.id, element)}
      size="sm"
      variant={deactivate ? 'danger' : 'secondary'}
      icon={deactivate ? <UserX /> : <UserCheck />}
      loading={busy}
      aria-label={`${deactivate ? 'Deactivate' : 'Reactivate'} ${name}`}
      onClick={() => onChange(member)}
    >
      {deactivate ? 'Deactivate' : 'Reactivate'}
    </Button>
  )
}

/**
 * The company's people: a table on wide screens, a list of cards on a phone. Status in words,
 * join date and last sign-in; nothing about anyone's requests.
 */
export function MembersList({ members, busyId, onChange, buttonRef }: MembersListProps) {
  const wide = useMediaQuery(TABLE_UP)
  if (!wide) {
    return (
      <ul className="flex flex-col gap-3" aria-label="People">
        {members.map((member) => (
          <li
            key={member.id}
            className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xs"
          >
            <div className="flex items-start justify-between gap-3">
              <div className="min-w-0">
                <p className="truncate font-semibold text-ink">
                  {memberName(member)}
                  {member.is_me ? <span className="font-normal text-ink-muted"> (you)</span> : null}
                </p>
                <p className="truncate text-sm text-ink-muted">{member.email}</p>
              </div>
              <MemberStatusBadge status={member.status} />
            </div>
            <dl className="grid grid-cols-3 gap-2 text-sm">
              <div>
                <dt className="text-ink-muted">Employee ID</dt>
                <dd className="truncate text-ink">{member.employee_id || '—'}</dd>
              </div>
              <div>
                <dt className="text-ink-muted">Joined</dt>
                <dd className="text-ink tabular-nums">{when(member.joined_at)}</dd>
              </div>
              <div>
                <dt className="text-ink-muted">Last sign-in</dt>
                <dd className="text-ink tabular-nums">{when(member.last_sign_in_at)}</dd>
              </div>
            </dl>
            {member.is_me ? null : (
              <div className="flex justify-end">
                <ActionButton
                  member={member}
                  busy={busyId === member.id}
                  onChange={onChange}
                  buttonRef={buttonRef}
                />
              </div>
            )}
          </li>
        ))}
      </ul>
    )
  }
  return (
    <div className="overflow-hidden rounded-2xl border border-line bg-surface shadow-xs">
      <table className="w-full text-sm">
        <caption className="sr-only">People</caption>
        <thead className="bg-surface-muted text-xs tracking-wide text-ink-muted uppercase">
          <tr>
            {['Name', 'Employee ID', 'Status', 'Joined', 'Last sign-in'].map((label) => (
              <th key={label} scope="col" className="px-4 py-3 text-start font-semibold">
                {label}
              </th>
            ))}
            <th scope="col" className="px-4 py-3 text-end font-semibold">
              <span className="sr-only">Access</span>
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {members.map((member) => (
            <tr key={member.id}>
              <th scope="row" className="max-w-72 px-4 py-3 text-start font-normal">
                <span className="block truncate font-semibold text-ink">{memberName(member)}</span>
                <span className="block truncate text-ink-muted">{member.email}</span>
              </th>
              {/* An id is up to 100 characters, maybe one unbroken word: it wraps. */}
              <td className="max-w-48 px-4 py-3 text-ink wrap-anywhere">
                {member.employee_id || '—'}
              </td>
              <td className="px-4 py-3">
                <MemberStatusBadge status={member.status} />
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink tabular-nums">
                {when(member.joined_at)}
              </td>
              <td className="px-4 py-3 whitespace-nowrap text-ink tabular-nums">
                {when(member.last_sign_in_at)}
              </td>
              <td className="px-4 py-3 text-end">
                <ActionButton
                  member={member}
                  busy={busyId === member.id}
                  onChange={onChange}
                  buttonRef={buttonRef}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}
