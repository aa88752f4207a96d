import { ArrowLeft } from 'lucide-react'
import { useRef } from 'react'
import { useSearchParams } from 'react-router'
import {
  Assistant,
  Button,
  Heading,
  LoadFailed,
  PageHeader,
  Paragraph,
  RetryAlert,
  Skeleton,
} from '@/design-system'
import { ALL_OFFERINGS, useOfferingCategories, useOfferings } from '../api'
import { BenefitsToggle } from '../components/BenefitsToggle'
import { CategoryFilterBar } from '../components/CategoryFilterBar'
import { DetailsDrawer } from '../components/DetailsDrawer'
import { OfferingGrid, OfferingGridSkeleton } from '../components/OfferingGrid'
import { useDetailsDrawer } from '../components/useDetailsDrawer'
import {
  ALL_CATEGORIES,
  filterOfferings,
  parseTypeFilter,
  resolveCategoryFilter,
  showBenefitsToggle,
  type TypeFilter,
} from '../filters'
import { LogoRetryProvider } from '../logoRetry'

export const NO_RESULTS = 'Sorry, no results have been found'

/**
 * OfferingsFull (spec §2): every benefit and offer, filtered client-side by category and by the
 * 'Show only my benefits' toggle. Both filters live in the URL query (`type`, `filter`) and each
 * change replaces the current history entry.
 */
/** The filter bar's placeholder pills while the categories load: a key and a width each. */
const FILTER_SKELETON_WIDTHS = [
  ['all', 16],
  ['first', 24],
  ['second', 20],
  ['third', 24],
] as const

export default function OfferingsFull() {
  const [searchParams, setSearchParams] = useSearchParams()
  const offerings = useOfferings(ALL_OFFERINGS)
  const categories = useOfferingCategories()
  const drawer = useDetailsDrawer()
  const results = useRef<HTMLElement>(null)

  const categoryList = categories.data ?? []
  const type = parseTypeFilter(searchParams.get('type'))
  const category = resolveCategoryFilter(searchParams.get('filter'), categoryList)

  const updateQuery = (next: { type?: TypeFilter; filter?: string }) => {
    setSearchParams(
      (previous) => {
        const params = new URLSearchParams(previous)
        params.set('type', next.type ?? type)
        params.set('filter', next.filter ?? category)
        return params
      },
      { replace: true },
    )
  }

  const all = offerings.data ?? []
  const shown = filterOfferings(all, { type, category })
  const waitingForCategories = categories.isPending && Boolean(searchParams.get('filter'))

  return (
    <LogoRetryProvider>
      <div className="flex flex-col gap-6">
        <Button
          to="/benefits-and-offers"
          variant="tertiary"
          size="sm"
          icon={<ArrowLeft />}
          className="-ms-3 self-start"
        >
          Benefits & Offers
        </Button>
        <PageHeader title="All benefits & offers">
          Browse everything available to you. Filter by category, or show only your own benefits.
        </PageHeader>

        <div className="flex flex-col gap-4">
          {categories.isPending ? (
            <div className="flex gap-2" aria-hidden="true">
              {FILTER_SKELETON_WIDTHS.map(([key, w]) => (
                <Skeleton key={key} className="h-10 rounded-full" width={`${w * 0.25}rem`} />
              ))}
            </div>
          ) : categories.isError ? (
            <RetryAlert
              message="We couldn't load the categories to filter by."
              onRetry={() => void categories.refetch()}
            />
          ) : categoryList.length > 0 ? (
            <CategoryFilterBar
              categories={categoryList}
              value={category}
              onChange={(filter) => updateQuery({ filter })}
            />
          ) : null}
          {offerings.isSuccess && showBenefitsToggle(all) ? (
            <BenefitsToggle
              isSelected={type === 'benefit'}
              onChange={(selected) => updateQuery({ type: selected ? 'benefit' : 'all' })}
            />
          ) : null}
        </div>

        {offerings.isPending || waitingForCategories ? (
          <OfferingGridSkeleton count={6} label="Loading benefits and offers" />
        ) : offerings.isError ? (
          <LoadFailed
            title="We couldn't load your benefits and offers"
            message="Please check your connection and try again."
            onRetry={() => void offerings.refetch()}
          />
        ) : (
          <section
            ref={results}
            tabIndex={-1}
            aria-label="Results"
            className="flex flex-col gap-4 outline-none"
          >
            <Paragraph size="sm" tone="muted" aria-live="polite" aria-atomic="true">
              {shown.length === 1 ? '1 result' : `${shown.length} results`}
            </Paragraph>
            {shown.length > 0 ? (
              <OfferingGrid
                offerings={shown}
                onOpen={drawer.open}
                showBenefitIcon
                label="Benefits and offers"
              />
            ) : (
              <NoResults
                canReset={type !== 'all' || category !== ALL_CATEGORIES}
                onReset={() => {
                  updateQuery({ type: 'all', filter: ALL_CATEGORIES })
                  // The reset button goes away with the empty state: keep focus on the results.
                  results.current?.focus()
                }}
              />
            )}
          </section>
        )}
      </div>
      <DetailsDrawer
        offeringId={drawer.selected?.id ?? null}
        preview={drawer.selected}
        onClose={drawer.close}
      />
    </LogoRetryProvider>
  )
}

function NoResults({ canReset, onReset }: { canReset: boolean; onReset: () => void }) {
  return (
    <div className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center">
      <Assistant size="lg" />
      <Heading level={2}>{NO_RESULTS}</Heading>
      <Paragraph tone="muted" className="max-w-md">
        {canReset
          ? 'Try another category, or see everything that’s available to you.'
          : 'There’s nothing here yet. Check back soon for new benefits and offers.'}
      </Paragraph>
      {canReset ? (
        <Button variant="secondary" onClick={onReset}>
          Show all benefits & offers
        </Button>
      ) : null}
    </div>
  )
}
