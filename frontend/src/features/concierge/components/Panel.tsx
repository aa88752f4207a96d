import { type ReactNode, useId } from 'react'
import { cx } from '@/design-system'

/** A titled side panel of the request view. */
export function Panel({
  title,
  subtitle,
  children,
  className,
}: {
  title: string
  subtitle?: ReactNode
  children: ReactNode
  className?: string
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        'flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5',
        className,
      )}
    >
      <header className="flex flex-col gap-0.5">
        <h2 id={headingId} className="text-lg font-semibold text-ink">
          {title}
        </h2>
        {subtitle ? <p className="text-sm text-ink-muted">{subtitle}</p> : null}
      </header>
      {children}
    </section>
  )
}

/** Label/value rows. */
export function Facts({ children }: { children: ReactNode }) {
  return <dl className="flex flex-col gap-2.5 text-sm">{children}</dl>
}

export function Fact({ label, children }: { label: ReactNode; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-0.5">
      <dt className="font-semibold text-ink-muted">{label}</dt>
      <dd className="break-words text-ink">{children}</dd>
    </div>
  )
}
