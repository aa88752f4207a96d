import { ArrowRight } from 'lucide-react'
import { useId } from 'react'
import { CategoryIcon, cx, Heading, Link } from '@/design-system'
import {
  type RecommendedCategory,
  SUGGESTED_SURVEYS_PER_CATEGORY,
  SurveyButton,
} from '@/features/request-drawer'

/** One recommended category of the request ideas: its surveys and a 'View all' link. */
export function CategoryColumn({
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
