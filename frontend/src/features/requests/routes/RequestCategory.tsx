/**
 * RequestCategory (spec §2): one survey category's request surveys as buttons that begin a
 * request in the drawer, with a way back to the Dashboard. An unknown category gets a friendly
 * not-found state.
 */
import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, LayoutDashboard } from 'lucide-react'
import { useParams } from 'react-router'
import {
  ASSISTANT_NAME,
  Assistant,
  Button,
  CategoryIcon,
  Heading,
  Paragraph,
  RetryAlert,
  Skeleton,
  SkeletonGroup,
} from '@/design-system'
import {
  categoryRequestSurveysQuery,
  isSurveyNotFound,
  SurveyButton,
} from '@/features/request-drawer'

export const CATEGORY_NOT_FOUND_TITLE = "We can't find that category"

function parseId(raw: string | undefined): number | null {
  if (!raw || !/^\d{1,12}$/.test(raw)) return null
  const id = Number(raw)
  return id > 0 ? id : null
}

export default function RequestCategory() {
  const { categoryId } = useParams()
  const id = parseId(categoryId)
  return (
    <div className="flex flex-col gap-8">
      <Button
        to="/dashboard"
        variant="tertiary"
        size="sm"
        icon={<ArrowLeft />}
        className="self-start"
      >
        Back to dashboard
      </Button>
      {id === null ? <CategoryNotFound /> : <CategoryScreen id={id} />}
    </div>
  )
}

function CategoryScreen({ id }: { id: number }) {
  const query = useQuery(categoryRequestSurveysQuery(id))

  if (query.isPending) {
    return (
      <SkeletonGroup label="Loading category" className="flex flex-col gap-6">
        <Skeleton shape="text" className="w-64" />
        <div className="grid gap-3 sm:grid-cols-2">
          {[0, 1, 2, 3].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      </SkeletonGroup>
    )
  }
  if (query.isError) {
    if (isSurveyNotFound(query.error)) return <CategoryNotFound />
    return (
      <RetryAlert message="We couldn't load this category." onRetry={() => void query.refetch()} />
    )
  }

  const { survey_category: category, request_surveys: surveys } = query.data
  return (
    <>
      <header className="flex items-center gap-4">
        <span
          aria-hidden="true"
          className="inline-flex size-14 shrink-0 items-center justify-center rounded-2xl bg-accent-100 text-accent-700"
        >
          <CategoryIcon name={category.icon} className="size-7" />
        </span>
        <div className="flex flex-col gap-1">
          <Heading level={1} size="lg">
            {category.name}
          </Heading>
          <Paragraph tone="muted">
            Pick a request to get started. {ASSISTANT_NAME} will ask a few quick questions.
          </Paragraph>
        </div>
      </header>
      {surveys.length === 0 ? (
        <section className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center">
          <Assistant size="lg" title={ASSISTANT_NAME} />
          <Heading level={2}>Nothing here yet</Heading>
          <Paragraph tone="muted" className="max-w-md">
            There are no requests in this category right now. You can always tell us what you need
            from the Dashboard.
          </Paragraph>
        </section>
      ) : (
        <ul aria-label={`${category.name} requests`} className="grid gap-3 sm:grid-cols-2">
          {surveys.map((survey) => (
            <li key={survey.id} className="flex">
              <SurveyButton survey={survey} size="lg" />
            </li>
          ))}
        </ul>
      )}
    </>
  )
}

function CategoryNotFound() {
  return (
    <section className="flex flex-col items-center gap-4 rounded-3xl bg-surface px-6 py-12 text-center sm:py-16">
      <Assistant size="lg" title={ASSISTANT_NAME} />
      <Heading level={1} size="lg">
        {CATEGORY_NOT_FOUND_TITLE}
      </Heading>
      <Paragraph tone="muted" className="max-w-md">
        This category may have moved or is no longer available. Head back to the Dashboard for more
        request ideas.
      </Paragraph>
      <Button to="/dashboard" icon={<LayoutDashboard />}>
        Go to Dashboard
      </Button>
    </section>
  )
}
