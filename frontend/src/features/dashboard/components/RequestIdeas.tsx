/**
 * Request ideas (spec §2 Dashboard, §9): the first 3 recommended categories as columns on sm
 * and wider, as tabs on small screens; each with at most 3 surveys that open the request
 * drawer, and a 'View all' link to the category.
 */
import { useQuery } from '@tanstack/react-query'
import type { ReactNode } from 'react'
import { Heading, RetryAlert, Skeleton, SkeletonGroup } from '@/design-system'
import { DASHBOARD_CATEGORY_LIMIT, recommendedCategoriesQuery } from '@/features/request-drawer'
import { SM_UP, useMediaQuery } from '@/lib/useMediaQuery'
import { CategoryColumn } from './CategoryColumn'
import { RequestIdeasTabs } from './RequestIdeasTabs'

export function RequestIdeas({ headingId }: { headingId: string }) {
  const query = useQuery(recommendedCategoriesQuery)
  const wide = useMediaQuery(SM_UP)

  let body: ReactNode
  if (query.isPending) {
    body = <IdeasSkeleton />
  } else if (query.isError) {
    body = (
      <RetryAlert message="We couldn't load request ideas." onRetry={() => void query.refetch()} />
    )
  } else {
    const categories = query.data.slice(0, DASHBOARD_CATEGORY_LIMIT)
    if (categories.length === 0) return null
    body = wide ? (
      <ul className="grid gap-4 sm:grid-cols-3">
        {categories.map((category) => (
          <li key={category.id} className="flex">
            <CategoryColumn category={category} />
          </li>
        ))}
      </ul>
    ) : (
      <RequestIdeasTabs categories={categories} headingId={headingId} />
    )
  }

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <Heading level={2} id={headingId}>
        Request ideas
      </Heading>
      {body}
    </section>
  )
}

function IdeasSkeleton() {
  return (
    <SkeletonGroup label="Loading request ideas" className="grid gap-4 sm:grid-cols-3">
      {[0, 1, 2].map((i) => (
        <Skeleton key={i} className="h-52 w-full" />
      ))}
    </SkeletonGroup>
  )
}
