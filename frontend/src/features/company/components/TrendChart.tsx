import { useEffect, useId, useRef, useState } from 'react'
import 'uplot/dist/uPlot.min.css'

export interface Series {
  label: string
  values: (number | null)[]
  color: string
}

/**
 * One trend over the report's months, drawn by uPlot (loaded on first use, in its own chunk).
 * The figures are also in the table below the charts and in the CSV, so the canvas is
 * labelled, not read out.
 */
export function TrendChart({
  title,
  months,
  series,
  format = String,
  range,
  note,
}: {
  title: string
  months: string[]
  series: Series[]
  format?: (value: number) => string
  /** A fixed value axis, e.g. [0, 5] for ratings; otherwise it fits the data. */
  range?: [number, number]
  /** Said under the chart, e.g. why some months are gaps (figures the server withheld). */
  note?: string
}) {
  const box = useRef<HTMLDivElement>(null)
  const [failed, setFailed] = useState(false)
  const titleId = useId()
  // Every month withheld (or none yet): nothing to draw, so no axes without a line.
  const empty = series.every((s) => s.values.every((value) => value === null))

  useEffect(() => {
    const element = box.current
    if (!element) return
    let chart: {
      destroy: () => void
      setSize: (s: { width: number; height: number }) => void
    } | null = null
    let observer: ResizeObserver | null = null
    let cancelled = false
    import('uplot')
      .then(({ default: UPlot }) => {
        if (cancelled) return
        const xs = months.map((_, i) => i)
        const width = Math.max(240, element.clientWidth)
        chart = new UPlot(
          {
            width,
            height: 180,
            legend: { show: false },
            scales: { x: { time: false }, ...(range ? { y: { range } } : {}) },
            axes: [
              {
                values: (_u: unknown, ticks: number[]) =>
                  ticks.map((t) => (Number.isInteger(t) ? shortMonth(months[t]) : '')),
                stroke: '#6b6b6b',
              },
              {
                values: (_u: unknown, ticks: number[]) => ticks.map((t) => format(t)),
                stroke: '#6b6b6b',
                size: 48,
              },
            ],
            series: [
              {},
              ...series.map((s) => ({
                label: s.label,
                stroke: s.color,
                width: 2,
                fill: `${s.color}22`,
                points: { show: true, size: 6 },
                spanGaps: false, // a withheld month is a gap, not a line drawn across it
              })),
            ],
          },
          [xs, ...series.map((s) => s.values)] as never,
          element,
        )
        observer = new ResizeObserver(() => {
          chart?.setSize({ width: Math.max(240, element.clientWidth), height: 180 })
        })
        observer.observe(element)
      })
      .catch((error: unknown) => {
        console.error('The chart could not load', error)
        if (!cancelled) setFailed(true)
      })
    return () => {
      cancelled = true
      observer?.disconnect()
      chart?.destroy()
    }
  }, [months, series, format, range])

  return (
    <figure
      aria-labelledby={titleId}
      className="flex min-w-0 flex-col gap-2 rounded-2xl border border-line bg-surface p-4 shadow-xs"
    >
      <figcaption id={titleId} className="font-semibold text-ink">
        {title}
      </figcaption>
      {series.length > 1 ? (
        <ul className="flex flex-wrap gap-x-4 gap-y-1 text-xs text-ink-muted" aria-hidden="true">
          {series.map((s) => (
            <li key={s.label} className="inline-flex items-center gap-1.5">
              <span className="inline-block h-0.5 w-4" style={{ backgroundColor: s.color }} />
              {s.label}
            </li>
          ))}
        </ul>
      ) : null}
      {empty ? (
        <p className="flex min-h-[180px] items-center justify-center text-sm text-ink-muted">
          No month has enough to show yet.
        </p>
      ) : failed ? (
        <p className="text-sm text-ink-muted">
          The chart could not load; the table has the figures.
        </p>
      ) : (
        <div
          ref={box}
          role="img"
          aria-label={`${title}, by month`}
          className="min-h-[180px] w-full"
        />
      )}
      {note ? <p className="text-xs text-ink-muted">{note}</p> : null}
    </figure>
  )
}

export function shortMonth(month: string | undefined): string {
  if (!month) return ''
  const [year, number] = month.split('-').map(Number)
  return new Date(Date.UTC(year, number - 1, 1)).toLocaleString(undefined, {
    month: 'short',
    timeZone: 'UTC',
  })
}
