import { Link as RouterLink } from 'react-router'
import { cx, focusRing, Logo } from '@/design-system'
import { CompanyReportLink } from '@/features/company/components/CompanyReportLink'
import { config } from '@/lib/config'

/** A slim logo bar above the content on small screens. */
export function MobileHeader() {
  return (
    <header className="flex h-14 items-center px-5 sm:hidden">
      <RouterLink to="/dashboard" className={cx('rounded-md', focusRing)}>
        <Logo productName={config.productName} size="sm" />
      </RouterLink>
      <span className="ms-auto">
        <CompanyReportLink compact />
      </span>
    </header>
  )
}
