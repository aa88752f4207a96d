import { useQuery } from '@tanstack/react-query'
import { Heading, LoadFailed, Paragraph, Skeleton } from '@/design-system'
import { type RatingAverage, ratingSummaryQuery } from '../api'

function Stars({ average }: { average: number }) {
  return (
    <span className="font-semibold text-ink tabular-nums">
      {average.toFixed(2)}
      <span className="font-normal text-ink-muted"> / 5</span>
    </span>
  )
}

function AverageTable({
  title,
  rows,
  what,
}: {
  title: string
  rows: RatingAverage[]
  what: string
}) {
  return (
    <section className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5">
      <h2 className="text-lg font-semibold text-ink">{title}</h2>
      {rows.length === 0 ? (
        <Paragraph size="sm" tone="muted">
          No ratings yet.
        </Paragraph>
      ) : (
        <table className="w-full text-sm">
          <caption className="sr-only">{title}</caption>
          <thead>
            <tr className="border-b border-line text-start text-xs tracking-wide text-ink-muted uppercase">
              <th scope="col" className="py-2 text-start font-semibold">
                {what}
              </th>
              <th scope="col" className="py-2 text-end font-semibold">
                Average
              </th>
              <th scope="col" className="py-2 text-end font-semibold">
                Ratings
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-line">
            {rows.map((row) => (
              <tr key={row.id ?? row.name}>
                <th scope="row" className="py-2.5 text-start font-medium text-ink">
                  {row.name}
                </th>
                <td className="py-2.5 text-end">
                  <Stars average={row.average} />
                </td>
                <td className="py-2.5 text-end text-ink tabular-nums">{row.count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  )
}

/** /concierge/satisfaction: the employees' ratings, overall, per concierge and per company. */
export default function Satisfaction() {
  const summary = useQuery(ratingSummaryQuery())
  return (
    <div className="flex flex-col gap-5">
      <Heading level={1} size="lg">
        Satisfaction
      </Heading>
      {summary.isPending ? (
        <Skeleton height="10rem" className="rounded-2xl" />
      ) : summary.isError ? (
        <LoadFailed
          title="We couldn’t load the ratings"
          message={summary.error.message}
          onRetry={() => summary.refetch()}
        />
      ) : (
        <>
          <p className="flex flex-wrap items-baseline gap-x-3 text-ink" data-testid="csat-overall">
            <span className="text-3xl font-bold tabular-nums">
              {summary.data.overall.count ? summary.data.overall.average.toFixed(2) : '—'}
            </span>
            <span className="text-ink-muted">
              average of {summary.data.overall.count} rating
              {summary.data.overall.count === 1 ? '' : 's'} (1 very poor to 5 excellent)
            </span>
          </p>
          <div className="grid gap-5 lg:grid-cols-2">
            <AverageTable title="By concierge" what="Concierge" rows={summary.data.concierges} />
            <AverageTable title="By company" what="Company" rows={summary.data.companies} />
          </div>
        </>
      )}
    </div>
  )
}
