import { lazy, Suspense } from 'react'
import { Navigate, useLocation } from 'react-router'
import { Skeleton } from '@/design-system'
import CompanyReport from './CompanyReport'

// Its own chunk, fetched when a company admin opens it.
const CompanyMembers = lazy(() => import('./CompanyMembers'))

/**
 * /company/*: the company admin's pages, the report (/company) and the members page
 * (/company/members), as one route of the app's route table. That table is in the /sign-in
 * first load, whose size budget has no room for another route; and React Router's
 * <Routes> would add its matching code to every page, so the path is read here.
 */
export default function Company() {
  const path = useLocation().pathname.replace(/\/+$/, '')
  if (path === '/company') return <CompanyReport />
  if (path === '/company/members') {
    return (
      <Suspense fallback={<Skeleton height="12rem" className="rounded-2xl" />}>
        <CompanyMembers />
      </Suspense>
    )
  }
  return <Navigate to="/not-found" replace />
}
