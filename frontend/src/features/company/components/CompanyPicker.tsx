import { useQuery } from '@tanstack/react-query'
import { useSearchParams } from 'react-router'
import { SelectField } from '@/design-system'
import { companyAccessQuery } from '../api'

/** For an admin of several companies: which one the page is about (`?company=<id>`). */
export function CompanyPicker({ companyId }: { companyId: number }) {
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
    <SelectField
      label="Company"
      value={String(companyId)}
      options={companies.map((company) => ({ value: String(company.id), label: company.name }))}
      onChange={choose}
      className="w-full sm:w-64"
    />
  )
}
