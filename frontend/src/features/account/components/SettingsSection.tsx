import { type ReactNode, useId } from 'react'
import { cx } from '@/design-system'

/** A titled card on the Account page. */
export function SettingsSection({
  title,
  children,
  tone = 'default',
}: {
  title: string
  children: ReactNode
  tone?: 'default' | 'danger'
}) {
  const headingId = useId()
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        'flex flex-col gap-4 rounded-2xl border bg-surface p-5 shadow-xs sm:p-6',
        tone === 'danger' ? 'border-danger-200' : 'border-line',
      )}
    >
      <h2
        id={headingId}
        className={cx('text-lg font-semibold', tone === 'danger' ? 'text-danger-700' : 'text-ink')}
      >
        {title}
      </h2>
      {children}
    </section>
  )
}
