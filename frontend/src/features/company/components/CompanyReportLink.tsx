import { useQuery } from '@tanstack/react-query'
import { ChartColumn } from 'lucide-react'
import { NavLink } from 'react-router'
import { cx, focusRing } from '@/design-system'
import { companyAccessQuery } from '../api'

/** 'Company report' in the navigation, for company admins only. */
export function CompanyReportLink({ compact = false }: { compact?: boolean }) {
  const access = useQuery(companyAccessQuery())
  if (!access.data?.length) return null
  return (
    <NavLink
      to="/company"
      title="Company report"
      className={({ isActive }) =>
        cx(
          'inline-flex items-center gap-2 rounded-full px-3 py-2 text-sm font-semibold transition-colors',
          isActive ? 'bg-primary-50 text-primary-800' : 'text-ink-muted hover:text-ink',
          focusRing,
        )
      }
    >
      <ChartColumn aria-hidden="true" className="size-4" />
      <span className={compact ? 'sr-only' : undefined}>Company report</span>
    </NavLink>
  )
}
