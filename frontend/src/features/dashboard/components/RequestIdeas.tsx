/**
 * Request ideas (spec §2 Dashboard, §9): the first 3 recommended categories as columns on sm
 * and wider, as tabs on small screens; each with at most 3 surveys that open the request
 * drawer, and a 'View all' link to the category.
 */
import { useQuery } from '@tanstack/react-query'
import { ArrowRight, RotateCcw } from 'lucide-react'
import { type ReactNode, useId } from 'react'
import {
  Button,
  CategoryIcon,
  cx,
  Heading,
  Link,
  Skeleton,
  SkeletonGroup,
  TabPanel,
  Tabs,
} from '@/design-system'
import { SurveyButton } from '@/lib/requests/SurveyButton'
import {
  DASHBOARD_CATEGORY_LIMIT,
  type RecommendedCategory,
  recommendedCategoriesQuery,
  SUGGESTED_SURVEYS_PER_CATEGORY,
} from '@/lib/requests/surveys'
import { SM_UP, useMediaQuery } from '../useMediaQuery'

export function RequestIdeas({ headingId }: { headingId: string }) {
  const query = useQuery(recommendedCategoriesQuery)
  const wide = useMediaQuery(SM_UP)

  let body: ReactNode
  if (query.isPending) {
    body = (
      <SkeletonGroup label="Loading request ideas" className="grid gap-4 sm:grid-cols-3">
        {[0, 1, 2].map((i) => (
          <Skeleton key={i} className="h-52 w-full" />
        ))}
      </SkeletonGroup>
    )
  } else if (query.isError) {
    body = (
      <div
        role="alert"
        className="flex flex-wrap items-center gap-3 rounded-2xl border border-danger-200 bg-danger-50 p-4 text-sm font-medium text-danger-800"
      >
        <span className="min-w-0 flex-1">We couldn't load request ideas.</span>
        <Button
          size="sm"
          variant="secondary"
          icon={<RotateCcw />}
          onClick={() => void query.refetch()}
        >
          Retry
        </Button>
      </div>
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
      <Tabs aria-labelledby={headingId} fullWidth>
        {categories.map((category) => (
          <TabPanel key={category.id} label={category.name} id={`ideas-${category.id}`}>
            <CategoryColumn category={category} hideHeading />
          </TabPanel>
        ))}
      </Tabs>
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

function CategoryColumn({
  category,
  hideHeading = false,
}: {
  category: RecommendedCategory
  hideHeading?: boolean
}) {
  const headingId = useId()
  const surveys = category.request_surveys.slice(0, SUGGESTED_SURVEYS_PER_CATEGORY)
  return (
    <article
      aria-labelledby={headingId}
      className="flex w-full flex-col gap-4 rounded-2xl border border-line bg-surface p-5 shadow-xs"
    >
      <div className={cx('flex items-center gap-3', hideHeading && 'sr-only')}>
        <span
          aria-hidden="true"
          className="inline-flex size-11 shrink-0 items-center justify-center rounded-2xl bg-accent-100 text-accent-700"
        >
          <CategoryIcon name={category.icon} className="size-6" />
        </span>
        <Heading level={3} id={headingId}>
          {category.name}
        </Heading>
      </div>
      {surveys.length > 0 ? (
        <ul className="flex flex-col gap-2">
          {surveys.map((survey) => (
            <li key={survey.id}>
              <SurveyButton survey={survey} size="sm" />
            </li>
          ))}
        </ul>
      ) : null}
      <Link
        to={`/requests/category/${category.id}`}
        underline="hover"
        aria-label={`View all ${category.name} requests`}
        className="mt-auto inline-flex items-center gap-1 self-start text-sm font-semibold"
      >
        View all
        <ArrowRight aria-hidden="true" className="size-4" />
      </Link>
    </article>
  )
}
