import { useQuery } from '@tanstack/react-query'
import { Download, Users } from 'lucide-react'
import { type ReactNode, useMemo, useState } from 'react'
import { useSearchParams } from 'react-router'
import {
  Button,
  cx,
  FormError,
  focusRing,
  Heading,
  Paragraph,
  RetryAlert,
  Skeleton,
} from '@/design-system'
import { companyReportQuery, downloadReportCsv, ReportApiError, type ReportMonth } from '../api'
import { CompanyPicker } from '../components/CompanyPicker'
import { type Series, shortMonth, TrendChart } from '../components/TrendChart'
import { PRIVACY_NOTE, WITHHELD, Withheld } from '../components/Withheld'

const CSAT_RANGE: [number, number] = [0, 5]
const asHours = (value: number) => `${value} h`
const asPercent = (value: number) => `${value} %`
const COLORS = { primary: '#1f7a6d', accent: '#d9572b', info: '#3c64b1' }

type Kind = keyof typeof WITHHELD

/** A figure, or the placeholder of one the server withheld (null: fewer than 5 behind it). */
function figure(
  value: number | null,
  kind: Kind,
  show: (value: number) => string = String,
  size: 'sm' | 'md' = 'md',
): ReactNode {
  return value === null ? <Withheld {...WITHHELD[kind]} size={size} /> : show(value)
}

const hours = (value: number) => `${value.toFixed(1)} h`
const percent = (value: number) => `${Math.round(value * 100)} %`
const stars = (value: number) => value.toFixed(2)

function longMonth(month: string): string {
  const [year, number] = month.split('-').map(Number)
  return new Date(Date.UTC(year, number - 1, 1)).toLocaleString(undefined, {
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  })
}

function Kpi({ label, value, detail }: { label: string; value: ReactNode; detail?: string }) {
  return (
    <div className="flex flex-col gap-1 rounded-2xl border border-line bg-surface p-4 shadow-xs">
      <dt className="text-sm text-ink-muted">{label}</dt>
      <dd className="text-2xl font-bold text-ink tabular-nums">{value}</dd>
      {detail ? <dd className="text-xs text-ink-muted">{detail}</dd> : null}
    </div>
  )
}

function useCharts(months: ReportMonth[]) {
  return useMemo(() => {
    const keys = months.map((m) => m.month)
    const series = (
      label: string,
      pick: (m: ReportMonth) => number | null,
      color: string,
    ): Series => ({
      label,
      values: months.map(pick),
      color,
    })
    // A withheld month is a gap in the line, and the chart says why.
    const gaps = (all: Series[], note: string) =>
      all.some((s) => s.values.includes(null)) ? note : undefined
    const volume = [
      series('Created', (m) => m.requests_created, COLORS.primary),
      series('Completed', (m) => m.requests_completed, COLORS.accent),
    ]
    const speed = [
      series('First reply', (m) => m.median_first_response_hours, COLORS.info),
      series('Completion', (m) => m.median_completion_hours, COLORS.accent),
    ]
    const csat = [series('Average rating', (m) => m.csat_average, COLORS.primary)]
    const usage = [
      series(
        'Employees who used it',
        (m) => (m.usage_share === null ? null : m.usage_share * 100),
        COLORS.info,
      ),
    ]
    return {
      keys,
      volume,
      volumeGaps: gaps(volume, 'Months with fewer than 5 requests are left out.'),
      speed,
      speedGaps: gaps(speed, 'Months with fewer than 5 requests are left out.'),
      csat,
      csatGaps: gaps(csat, 'Months with fewer than 5 ratings are left out.'),
      usage,
      usageGaps: gaps(
        usage,
        'Months when fewer than 5 employees used the service, or fewer than 5 didn’t, are left out.',
      ),
    }
  }, [months])
}

/**
 * /company: the company admin's report, for their company only, by month. Aggregates only
 * (no request names, answers or messages). The server withholds (null) every figure about
 * fewer than 5 people, requests or ratings; this page shows a placeholder in its place, a gap
 * in the charts, and leaves out categories with fewer than 5 requests. Charts load their
 * library on demand; the table and the CSV carry the figures.
 */
export default function CompanyReport() {
  const [params] = useSearchParams()
  const report = useQuery(companyReportQuery(Number(params.get('company')) || undefined))
  const [downloading, setDownloading] = useState(false)
  const [downloadError, setDownloadError] = useState<string | null>(null)
  const charts = useCharts(report.data?.months ?? [])

  if (report.isPending) {
    return (
      <div className="flex flex-col gap-4">
        <Skeleton height="2.5rem" className="max-w-sm" />
        <Skeleton height="8rem" className="rounded-2xl" />
      </div>
    )
  }
  if (report.isError) {
    const forbidden = report.error instanceof ReportApiError && report.error.status === 403
    return (
      <div className="flex flex-col gap-3">
        <Heading level={1} size="lg">
          Company report
        </Heading>
        {forbidden ? (
          <Paragraph role="alert">This report is for your company's admins only.</Paragraph>
        ) : (
          <RetryAlert message={report.error.message} onRetry={() => void report.refetch()} />
        )}
      </div>
    )
  }

  const months = report.data.months
  const companyId = report.data.company.id
  const latest = months[months.length - 1]
  const download = async () => {
    setDownloading(true)
    setDownloadError(null)
    try {
      await downloadReportCsv(companyId)
    } catch (error) {
      setDownloadError((error as Error).message)
    } finally {
      setDownloading(false)
    }
  }

  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <Heading level={1} size="lg">
            {report.data.company.name}: concierge report
          </Heading>
          <Paragraph size="sm" tone="muted">
            The last {months.length} months, aggregates only. {PRIVACY_NOTE}
          </Paragraph>
        </div>
        <CompanyPicker companyId={companyId} />
        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" icon={<Users />} to={`/company/members?company=${companyId}`}>
            Members
          </Button>
          <Button variant="secondary" icon={<Download />} loading={downloading} onClick={download}>
            Download CSV
          </Button>
        </div>
      </div>
      <FormError message={downloadError} />

      <section aria-labelledby="company-latest" className="flex flex-col gap-3">
        <h2 id="company-latest" className="text-lg font-semibold text-ink">
          {longMonth(latest.month)}
        </h2>
        <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4">
          <Kpi
            label="Requests"
            value={figure(latest.requests_created, 'requests')}
            detail={
              latest.requests_completed === null
                ? 'Fewer than 5 completed'
                : `${latest.requests_completed} completed`
            }
          />
          <Kpi
            label="Median first reply"
            value={figure(latest.median_first_response_hours, 'median', hours)}
            detail={
              latest.median_completion_hours === null
                ? 'Completion: fewer than 5 requests'
                : `Completion ${hours(latest.median_completion_hours)}`
            }
          />
          <Kpi
            label="Satisfaction"
            value={figure(latest.csat_average, 'rating', stars)}
            detail={
              latest.csat_count === null ? 'Scale of 1–5' : `${latest.csat_count} ratings (1–5)`
            }
          />
          <Kpi
            label="Employees who used it"
            value={figure(latest.usage_share, 'usage', percent)}
            detail={
              latest.employees_using === null || latest.employees === null
                ? 'Fewer than 5 used it, or fewer than 5 didn’t'
                : `${latest.employees_using} of ${latest.employees}`
            }
          />
        </dl>
        <div className="flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 shadow-xs">
          <h3 className="font-semibold text-ink">Top categories</h3>
          {latest.top_categories.length ? (
            <ul className="flex flex-wrap gap-2" aria-label="Top categories">
              {latest.top_categories.map((category) => (
                <li
                  key={category.name}
                  className="rounded-full bg-primary-50 px-3 py-1 text-sm text-primary-800"
                >
                  {category.name}: <span className="font-semibold">{category.count}</span>
                </li>
              ))}
            </ul>
          ) : null}
          <Paragraph size="sm" tone="muted">
            {latest.top_categories.length
              ? 'Categories with fewer than 5 requests aren’t listed.'
              : 'No category had 5 or more requests this month.'}
          </Paragraph>
        </div>
      </section>

      <section aria-label="Trends" className="grid gap-4 lg:grid-cols-2">
        <TrendChart
          title="Requests created and completed"
          months={charts.keys}
          series={charts.volume}
          note={charts.volumeGaps}
        />
        <TrendChart
          title="Median hours to first reply and to completion"
          months={charts.keys}
          series={charts.speed}
          format={asHours}
          note={charts.speedGaps}
        />
        <TrendChart
          title="Satisfaction (average, 1–5)"
          months={charts.keys}
          series={charts.csat}
          range={CSAT_RANGE}
          note={charts.csatGaps}
        />
        <TrendChart
          title="Share of employees who used the service"
          months={charts.keys}
          series={charts.usage}
          format={asPercent}
          note={charts.usageGaps}
        />
      </section>

      <section aria-labelledby="company-table" className="flex flex-col gap-3">
        <h2 id="company-table" className="text-lg font-semibold text-ink">
          By month
        </h2>
        {/* On a phone the table scrolls sideways: the keyboard can focus it to scroll it, and
            it is `relative` so the placeholders' screen-reader text stays inside it. */}
        <section
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be focusable
          tabIndex={0}
          aria-label="Figures by month, scrollable"
          className={cx(
            'relative overflow-x-auto rounded-2xl border border-line bg-surface shadow-xs',
            focusRing,
          )}
        >
          <table className="w-full min-w-[40rem] text-sm">
            <caption className="sr-only">Figures by month</caption>
            <thead className="bg-surface-muted text-xs tracking-wide text-ink-muted uppercase">
              <tr>
                {[
                  'Month',
                  'Created',
                  'Completed',
                  'First reply',
                  'Completion',
                  'Rating',
                  'Used it',
                ].map((label) => (
                  <th key={label} scope="col" className="px-3 py-2 text-start font-semibold">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-line">
              {[...months].reverse().map((m) => (
                <tr key={m.month}>
                  <th
                    scope="row"
                    className="px-3 py-2 text-start font-medium whitespace-nowrap text-ink"
                  >
                    {shortMonth(m.month)} {m.month.slice(0, 4)}
                  </th>
                  <td className="px-3 py-2 tabular-nums">
                    {figure(m.requests_created, 'requests', String, 'sm')}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    {figure(m.requests_completed, 'completed', String, 'sm')}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    {figure(m.median_first_response_hours, 'median', hours, 'sm')}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    {figure(m.median_completion_hours, 'median', hours, 'sm')}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    {m.csat_average === null || m.csat_count === null
                      ? figure(null, 'rating', stars, 'sm')
                      : `${stars(m.csat_average)} (${m.csat_count})`}
                  </td>
                  <td className="px-3 py-2 tabular-nums">
                    {figure(m.usage_share, 'usage', percent, 'sm')}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </section>
    </div>
  )
}
