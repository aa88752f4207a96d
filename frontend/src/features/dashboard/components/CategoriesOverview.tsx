/** Every survey category, each leading to its request surveys (the 'Explore categories' target). */
import { useQuery } from '@tanstack/react-query'
import { ChevronRight } from 'lucide-react'
import { Link as RouterLink } from 'react-router'
import {
  CategoryIcon,
  cx,
  focusRing,
  Heading,
  Paragraph,
  RetryAlert,
  Skeleton,
  SkeletonGroup,
} from '@/design-system'
import { surveyCategoriesQuery } from '@/features/request-drawer'

export const CATEGORIES_ANCHOR = 'categories'
export const CATEGORIES_HEADING_ID = `${CATEGORIES_ANCHOR}-heading`

export function CategoriesOverview() {
  const query = useQuery(surveyCategoriesQuery)
  const headingId = CATEGORIES_HEADING_ID
  return (
    <section
      id={CATEGORIES_ANCHOR}
      aria-labelledby={headingId}
      className="flex scroll-mt-24 flex-col gap-4"
    >
      <div className="flex flex-col gap-1">
        <Heading level={2} id={headingId} tabIndex={-1} className="outline-none">
          All categories
        </Heading>
        <Paragraph tone="muted">Browse everything our concierge team can help with.</Paragraph>
      </div>
      {query.isPending ? (
        <SkeletonGroup
          label="Loading categories"
          className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-4"
        >
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-16 w-full" />
          ))}
        </SkeletonGroup>
      ) : query.isError ? (
        <RetryAlert
          message="We couldn't load the categories."
          onRetry={() => void query.refetch()}
        />
      ) : query.data.length === 0 ? (
        <Paragraph tone="muted">
          No categories yet. Use Create a request to tell your concierge what you need.
        </Paragraph>
      ) : (
        <ul className="grid grid-cols-1 gap-3 min-[400px]:grid-cols-2 sm:grid-cols-3 lg:grid-cols-4">
          {query.data.map((category) => (
            <li key={category.id} className="flex">
              <RouterLink
                to={`/requests/category/${category.id}`}
                className={cx(
                  'flex w-full items-center gap-3 rounded-2xl border border-line bg-surface p-3 text-sm font-semibold text-ink shadow-xs',
                  'transition-colors hover:border-primary-400 hover:bg-primary-50/50 motion-reduce:transition-none',
                  focusRing,
                )}
              >
                <span
                  aria-hidden="true"
                  className="inline-flex size-10 shrink-0 items-center justify-center rounded-xl bg-primary-50 text-primary-700"
                >
                  <CategoryIcon name={category.icon} className="size-5" />
                </span>
                {/* Admins name categories: a long word wraps inside the link rather than overflow it. */}
                <span className="min-w-0 flex-1 wrap-anywhere">{category.name}</span>
                <ChevronRight aria-hidden="true" className="size-4 shrink-0 text-ink-muted" />
              </RouterLink>
            </li>
          ))}
        </ul>
      )}
    </section>
  )
}
