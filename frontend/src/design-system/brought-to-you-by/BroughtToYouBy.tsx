import { useId } from 'react'
import { Overline } from '../text'
import { cx } from '../utils'

/** A sponsoring company: its logo when it has one, else its name. */
export interface SponsorCompany {
  id: number
  name: string
  image_url?: string | null
}

/** 'Brought to you by': the user's sponsoring companies, as logos or names (spec §1). */
export function BroughtToYouBy({
  companies,
  className,
}: {
  companies: readonly SponsorCompany[]
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
