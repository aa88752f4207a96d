import { useId } from 'react'
import type { CurrentUser } from '@/api/client'
import { cx, Overline } from '@/design-system'

type Company = CurrentUser['companies'][number]

/** 'Brought to you by': the user's sponsoring companies, as logos or names (spec §1). */
export function BroughtToYouBy({
  companies,
  className,
}: {
  companies: readonly Company[]
  className?: string
}) {
  const headingId = useId()
  if (companies.length === 0) return null
  return (
    <section aria-labelledby={headingId} className={cx('flex flex-col gap-2', className)}>
      <Overline tone="muted" id={headingId}>
        Brought to you by
      </Overline>
      <ul className="flex flex-wrap items-center gap-x-5 gap-y-2">
        {companies.map((company) => (
          <li key={company.id} className="flex items-center">
            {company.image_url ? (
              <img
                src={company.image_url}
                alt={company.name}
                className="h-8 max-w-40 object-contain"
                loading="lazy"
              />
            ) : (
              <span className="text-base font-semibold text-ink">{company.name}</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  )
}
