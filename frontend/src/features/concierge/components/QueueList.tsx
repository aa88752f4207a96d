import { Link as RouterLink } from 'react-router'
import { CategoryIcon, cx, focusRing } from '@/design-system'
import { formatWhen, relativeTime } from '@/lib/format'
import type { QueueItem } from '../api'
import { AssigneeName, NeedsReplyBadge, SlaBadge, slaStateAt } from './Badges'

export function deskRequestPath(id: number): string {
  return `/concierge/requests/${id}`
}

/** Who wrote the last message, as the desk reads it: the employee's name or the concierge's. */
function lastAuthor(item: QueueItem): string {
  const message = item.last_message
  if (!message) return ''
  if (message.source === 'user') return item.employee.full_name
  return message.source_name || 'Concierge'
}

function isOverdue(item: QueueItem, now: number): boolean {
  return item.sla ? slaStateAt(item.sla, now) === 'overdue' : false
}

function Age({ item, now }: { item: QueueItem; now: number }) {
  return (
    <time dateTime={item.issued_at} title={formatWhen(item.issued_at, { now, capitalize: true })}>
      {relativeTime(item.issued_at, now)}
    </time>
  )
}

function LastMessage({ item, now }: { item: QueueItem; now: number }) {
  const message = item.last_message
  if (!message) return <span className="text-ink-muted italic">No messages yet</span>
  return (
    <span className="flex min-w-0 flex-col">
      <span className="line-clamp-2 text-ink">
        <span className="font-semibold">{lastAuthor(item)}:</span> {message.body_text}
      </span>
      <time
        dateTime={message.created_at}
        title={formatWhen(message.created_at, { now, capitalize: true })}
        className="text-xs text-ink-muted"
      >
        {relativeTime(message.created_at, now)}
      </time>
    </span>
  )
}

function Category({ item }: { item: QueueItem }) {
  if (!item.survey_category_name && !item.survey_category_icon) return null
  return (
    <span className="inline-flex items-center gap-1.5 text-xs text-ink-muted">
      <CategoryIcon name={item.survey_category_icon} className="size-3.5 shrink-0" />
      {item.survey_category_name}
    </span>
  )
}

/** The queue as a dense table (wide screens) and as cards (small screens). */
export function QueueList({ items, now }: { items: QueueItem[]; now: number }) {
  return (
    <>
      <QueueTable items={items} now={now} />
      <QueueCards items={items} now={now} />
    </>
  )
}

const th = 'px-3 py-2.5 text-start text-xs font-semibold tracking-wide text-ink-muted uppercase'
const td = 'px-3 py-3 align-top'

function QueueTable({ items, now }: { items: QueueItem[]; now: number }) {
  return (
    <div className="hidden overflow-hidden rounded-2xl border border-line bg-surface shadow-xs lg:block">
      <table className="w-full table-fixed border-collapse text-sm">
        <caption className="sr-only">Requests</caption>
        <colgroup>
          <col className="w-[22%]" />
          <col className="w-[17%]" />
          <col className="w-[11%]" />
          <col className="w-[10%]" />
          <col className="w-[26%]" />
          <col className="w-[14%]" />
        </colgroup>
        <thead className="border-b border-line bg-surface-muted">
          <tr>
            <th scope="col" className={th}>
              Request
            </th>
            <th scope="col" className={th}>
              Employee
            </th>
            <th scope="col" className={th}>
              Company
            </th>
            <th scope="col" className={th}>
              Age
            </th>
            <th scope="col" className={th}>
              Last message
            </th>
            <th scope="col" className={th}>
              Assignee
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-line">
          {items.map((item) => (
            <tr
              key={item.id}
              data-request-id={item.id}
              data-overdue={isOverdue(item, now) || undefined}
              className={cx(
                'relative transition-colors hover:bg-primary-50/60 motion-reduce:transition-none',
                // Overdue rows stand out: a red edge and a tinted background.
                isOverdue(item, now) &&
                  'bg-danger-50/70 shadow-[inset_4px_0_0_var(--color-danger-600)]',
              )}
            >
              <td className={td}>
                <div className="flex min-w-0 flex-col gap-1">
                  <RouterLink
                    to={deskRequestPath(item.id)}
                    className={cx(
                      'font-semibold break-words text-ink hover:text-primary-700',
                      // The whole row is the link's target area.
                      'after:absolute after:inset-0 after:content-[""]',
                      focusRing,
                      'rounded-sm',
                    )}
                  >
                    {item.name}
                  </RouterLink>
                  <span className="flex flex-wrap items-center gap-x-2 gap-y-1">
                    <span className="text-xs text-ink-muted tabular-nums">#{item.id}</span>
                    <Category item={item} />
                  </span>
                  <span className="flex flex-wrap items-center gap-1.5">
                    <SlaBadge sla={item.sla} now={now} />
                    {item.waiting_on === 'concierge' ? <NeedsReplyBadge /> : null}
                  </span>
                </div>
              </td>
              <td className={td}>
                <div className="flex min-w-0 flex-col">
                  {/* Cut short in a narrow column: the whole of it on hover. */}
                  <span className="truncate font-medium text-ink" title={item.employee.full_name}>
                    {item.employee.full_name}
                  </span>
                  <span className="truncate text-xs text-ink-muted" title={item.employee.email}>
                    {item.employee.email}
                  </span>
                </div>
              </td>
              <td className={cx(td, 'break-words text-ink')}>{item.company?.name ?? '—'}</td>
              <td className={cx(td, 'text-ink')}>
                <Age item={item} now={now} />
              </td>
              <td className={td}>
                <LastMessage item={item} now={now} />
              </td>
              <td className={cx(td, 'break-words')}>
                <AssigneeName name={item.assignee?.full_name} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  )
}

function QueueCards({ items, now }: { items: QueueItem[]; now: number }) {
  return (
    <ul aria-label="Requests" className="flex flex-col gap-3 lg:hidden">
      {items.map((item) => (
        <li
          key={item.id}
          data-request-id={item.id}
          data-overdue={isOverdue(item, now) || undefined}
        >
          <RouterLink
            to={deskRequestPath(item.id)}
            className={cx(
              'flex flex-col gap-2 rounded-2xl border p-4 transition-colors hover:border-primary-300 motion-reduce:transition-none',
              isOverdue(item, now)
                ? 'border-danger-200 bg-danger-50 shadow-[inset_4px_0_0_var(--color-danger-600)]'
                : 'border-line bg-surface shadow-xs',
              focusRing,
            )}
          >
            <span className="flex items-start justify-between gap-3">
              <span className="min-w-0">
                <span className="block font-semibold break-words text-ink">{item.name}</span>
                <span className="text-xs text-ink-muted tabular-nums">#{item.id}</span>
              </span>
              <span className="flex shrink-0 flex-col items-end gap-1">
                <SlaBadge sla={item.sla} now={now} />
                {item.waiting_on === 'concierge' ? <NeedsReplyBadge /> : null}
              </span>
            </span>
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-sm">
              <span className="font-medium text-ink">{item.employee.full_name}</span>
              <span className="min-w-0 truncate text-ink-muted" title={item.employee.email}>
                {item.employee.email}
              </span>
            </span>
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-ink-muted">
              {item.company ? <span>{item.company.name}</span> : null}
              <Category item={item} />
              <Age item={item} now={now} />
            </span>
            <span className="text-sm">
              <LastMessage item={item} now={now} />
            </span>
            <span className="text-xs text-ink-muted">
              Assignee: <AssigneeName name={item.assignee?.full_name} />
            </span>
          </RouterLink>
        </li>
      ))}
    </ul>
  )
}
