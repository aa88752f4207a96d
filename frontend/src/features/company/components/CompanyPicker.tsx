import { useQuery } from '@tanstack/react-query'
import { useId } from 'react'
import { useSearchParams } from 'react-router'
import { controlClassName } from '@/design-system'
import { companyAccessQuery } from '../api'

/** For an admin of several companies: which one the page is about (`?company=<id>`). */
export function CompanyPicker({ companyId }: { companyId: number }) {
  const id = useId()
  const access = useQuery(companyAccessQuery())
  const [params, setParams] = useSearchParams()
  const companies = access.data ?? []
  if (companies.length < 2) return null
  const choose = (value: string) => {
    const next = new URLSearchParams(params)
    next.set('company', value)
    setParams(next)
  }
  return (
    <div className="flex w-full flex-col gap-1.5 sm:w-64">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        Company
      </label>
      <select
        id={id}
        value={companyId}
        onChange={(event) => choose(event.target.value)}
        className={controlClassName(false, 'truncate')}
      >
        {companies.map((company) => (
          <option key={company.id} value={company.id}>
            {company.name}
          </option>
        ))}
      </select>
    </div>
  )
}
