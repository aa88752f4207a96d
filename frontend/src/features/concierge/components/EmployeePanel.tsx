import { formatPhone, Link } from '@/design-system'
import { formatLongDate } from '@/lib/format'
import type { DeskRequest } from '../api'
import { Fact, Facts, Panel } from './Panel'

// Onboarding answers that are contact details (phone 104, preferred email 165, the address 611
// and its parts): the facts above already show them.
const CONTACT_ANSWER_IDS = new Set([104, 165, 611, 148, 149, 150, 151, 311, 313])

/** The employee's profile: companies, contact details and onboarding answers. */
export function EmployeePanel({ employee }: { employee: DeskRequest['employee'] }) {
  const onboarding = employee.onboarding.filter((item) => !CONTACT_ANSWER_IDS.has(item.answer_id))
  const since = formatLongDate(employee.date_joined)
  const requests = `${employee.request_count} ${employee.request_count === 1 ? 'request' : 'requests'}`
  return (
    <Panel title="Employee" subtitle={since ? `Member since ${since} · ${requests}` : requests}>
      <Facts>
        <Fact label="Name">{employee.full_name}</Fact>
        <Fact label="Companies">
          {employee.companies.length ? employee.companies.map((c) => c.name).join(', ') : '—'}
        </Fact>
        <Fact label="Email">
          <Link href={`mailto:${employee.email}`}>{employee.email}</Link>
        </Fact>
        {employee.preferred_email && employee.preferred_email !== employee.email ? (
          <Fact label="Preferred email">
            <Link href={`mailto:${employee.preferred_email}`}>{employee.preferred_email}</Link>
          </Fact>
        ) : null}
        <Fact label="Phone">
          {employee.phone ? (
            <Link href={`tel:${employee.phone}`}>{formatPhone(employee.phone)}</Link>
          ) : (
            '—'
          )}
        </Fact>
        <Fact label="Address">
          <span className="whitespace-pre-line">{employee.address || '—'}</span>
        </Fact>
      </Facts>
      <div className="flex flex-col gap-2 border-t border-line pt-3">
        <h3 className="text-sm font-semibold text-ink">Onboarding answers</h3>
        {onboarding.length === 0 ? (
          <p className="text-sm text-ink-muted">No onboarding answers yet.</p>
        ) : (
          <Facts>
            {onboarding.map((item) => (
              <Fact key={item.answer_id} label={item.label}>
                {item.value}
              </Fact>
            ))}
          </Facts>
        )}
      </div>
    </Panel>
  )
}
