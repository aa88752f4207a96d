import { type ReactNode, useEffect, useId, useRef } from 'react'
import { cx } from '@/design-system'

/** A titled card on the Account page; `focusTitle`: its title takes the focus when it shows
 * (a panel that replaced the card the person was using). */
export function SettingsSection({
  title,
  children,
  tone = 'default',
  focusTitle = false,
}: {
  title: string
  children: ReactNode
  tone?: 'default' | 'danger'
  focusTitle?: boolean
}) {
  const headingId = useId()
  const heading = useRef<HTMLHeadingElement>(null)
  useEffect(() => {
    if (focusTitle) heading.current?.focus()
  }, [focusTitle])
  return (
    <section
      aria-labelledby={headingId}
      className={cx(
        'flex flex-col gap-4 rounded-2xl border bg-surface p-5 shadow-xs sm:p-6',
        tone === 'danger' ? 'border-danger-200' : 'border-line',
      )}
    >
      <h2
        ref={heading}
        id={headingId}
        tabIndex={focusTitle ? -1 : undefined}
        className={cx('text-lg font-semibold', tone === 'danger' ? 'text-danger-700' : 'text-ink')}
      >
        {title}
      </h2>
      {children}
    </section>
  )
}
