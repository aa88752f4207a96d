import { useInfiniteQuery, useQuery } from '@tanstack/react-query'
import { Search } from 'lucide-react'
import { useEffect, useMemo, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import type { RequestStatus } from '@/api/enums'
import {
  Assistant,
  Button,
  Heading,
  LoadFailed,
  Paragraph,
  SelectField,
  Skeleton,
  SkeletonGroup,
  TabPanel,
  Tabs,
} from '@/design-system'
import { useNow } from '@/lib/useNow'
import {
  type AssigneeFilter,
  type DueFilter,
  type Queue as QueueData,
  type QueueFilters,
  type QueueItem,
  type QueueOrder,
  queueQuery,
  searchQuery,
} from '../api'
import { QueueList } from '../components/QueueList'
import { SearchField } from '../components/SearchField'
import { SearchResults } from '../components/SearchResults'
import {
  filtersFromParams,
  paramsFromFilters,
  QUEUE_TABS,
  rememberQueueSearch,
} from '../lib/filters'
import { useDebouncedValue } from '../lib/useDebouncedValue'
import { useQueueShortcuts, visibleRequestLinks } from '../lib/useQueueShortcuts'

export const SEARCH_DEBOUNCE_MS = 300

/** A key's look in the shortcuts line. */
const KEY = 'rounded border border-line bg-surface px-1.5 py-0.5 font-mono text-[0.7rem] text-ink'

/**
 * The queue (/concierge): every company's requests by status, due soonest first by default
 * (the company's reply-time promise), with filters by company, assignee and deadline, and a
 * search. The filters live in the address, so a reload,
 * a shared link or the back button keeps them. Live events refetch it (see ConciergeLayout).
 */
export default function Queue() {
  const [params, setParams] = useSearchParams()
  const filters = useMemo(() => filtersFromParams(params), [params])
  const now = useNow()
  useEffect(() => rememberQueueSearch(params.size ? `?${params}` : ''), [params])

  const update = (change: Partial<QueueFilters>) =>
    setParams(paramsFromFilters({ ...filters, ...change }), { replace: true })

  // The search box answers as the concierge types, 300 ms after the last key.
  const [search, setSearch] = useState(filters.q)
  const settledSearch = useDebouncedValue(search, SEARCH_DEBOUNCE_MS)
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a settled search updates the address
  useEffect(() => {
    if (settledSearch.trim() !== filters.q.trim()) update({ q: settledSearch })
  }, [settledSearch])
  // The address changed under the box (the desk's logo link, a shared link): the box follows it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: only a change of the address counts
  useEffect(() => {
    if (filters.q.trim() !== settledSearch.trim()) setSearch(filters.q)
  }, [filters.q])

  const searchBox = useRef<HTMLInputElement>(null)
  const list = useRef<HTMLDivElement>(null)
  useQueueShortcuts(searchBox, list)

  const searching = filters.q.trim()
  const queue = useInfiniteQuery(queueQuery(filters))
  const found = useQuery({ ...searchQuery(searching), enabled: Boolean(searching) })
  const pages = queue.data?.pages
  const rows = useMemo(() => rowsOf(pages), [pages])
  const companies = useCompaniesSeen(pages ? rows : undefined, filters.company)

  const first = pages?.[0]
  const count = (status: RequestStatus) =>
    first ? countLabel(first.counts[status], first.counts_capped.includes(status)) : ''
  const more = queue.hasNextPage || (first ? first.counts[filters.status] > rows.length : false)

  // 'Show more' is busy while its page loads and gone after the last one: focus moves on to
  // the first request the page added.
  const shown = useRef<HTMLDivElement>(null)
  const focusRow = useRef<number | null>(null)
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when a page has come in
  useEffect(() => {
    const at = focusRow.current
    if (at === null || queue.isFetchingNextPage) return
    focusRow.current = null
    if (shown.current) visibleRequestLinks(shown.current)[at]?.focus()
  }, [rows, queue.isFetchingNextPage])
  const showMore = () => {
    focusRow.current = rows.length
    void queue.fetchNextPage()
  }

  return (
    <div ref={list} className="flex flex-col gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <Heading level={1} size="lg">
          Requests
        </Heading>
        <p className="hidden text-xs text-ink-muted lg:block">
          Keys: <kbd className={KEY}>/</kbd> search, <kbd className={KEY}>j</kbd>{' '}
          <kbd className={KEY}>k</kbd> next and previous request
        </p>
      </div>

      <section aria-label="Filter requests">
        <div className="grid grid-cols-2 gap-3 md:grid-cols-[minmax(0,2fr)_repeat(4,minmax(0,1fr))]">
          <SearchField
            ref={searchBox}
            shortcut="/"
            className="col-span-2 md:col-span-1"
            label="Search"
            placeholder="Person, request, message or #id"
            value={search}
            onChange={setSearch}
          />
          <SelectField
            label="Company"
            value={filters.company === null ? '' : String(filters.company)}
            onChange={(value) => update({ company: value ? Number(value) : null })}
            options={[
              { value: '', label: 'All companies' },
              ...companies.map((c) => ({ value: String(c.id), label: c.name })),
            ]}
          />
          <SelectField
            label="Assignee"
            value={filters.assignee}
            onChange={(value) => update({ assignee: value as AssigneeFilter })}
            options={[
              { value: '', label: 'All' },
              { value: 'mine', label: 'Mine' },
              { value: 'unassigned', label: 'Unassigned' },
            ]}
          />
          <SelectField
            label="Deadline"
            value={filters.due}
            onChange={(value) => update({ due: value as DueFilter })}
            options={[
              { value: '', label: 'Any' },
              { value: 'overdue', label: 'Overdue' },
              { value: 'soon', label: 'Due within 1 h' },
            ]}
          />
          <SelectField
            label="Order"
            value={filters.order}
            onChange={(value) => update({ order: value as QueueOrder })}
            options={[
              { value: 'due', label: 'Due soonest' },
              { value: 'oldest', label: 'Oldest first' },
              { value: 'newest', label: 'Newest first' },
            ]}
          />
        </div>
      </section>

      {searching ? (
        <section aria-label="Search" className="flex flex-col gap-3">
          <Heading level={2} className="text-lg sm:text-xl">
            Best matches for “{searching}”
          </Heading>
          {found.isPending ? (
            <QueueSkeleton />
          ) : found.isError && !found.data ? (
            <LoadFailed
              title="We couldn’t finish this search"
              headingLevel={3}
              message={found.error.message}
              onRetry={() => found.refetch()}
            />
          ) : found.data?.length ? (
            <SearchResults results={found.data} query={searching} />
          ) : (
            <Paragraph tone="muted">
              No request, survey answer, message or note matches every word.
            </Paragraph>
          )}
          <Paragraph size="sm" tone="muted">
            Searched across all time in request names, survey answers, messages and internal notes.
            The tabs below list the requests whose employee, request name or message matches.
          </Paragraph>
        </section>
      ) : null}

      <Tabs
        aria-label="Requests by status"
        fitNarrow
        selectedKey={filters.status}
        onSelectionChange={(id) => update({ status: id as RequestStatus })}
      >
        {QUEUE_TABS.map((tab) => (
          <TabPanel
            key={tab.status}
            id={tab.status}
            label={first ? `${tab.label} (${count(tab.status)})` : tab.label}
          >
            {queue.isPending ? (
              <QueueSkeleton />
            ) : queue.isError && !queue.data ? (
              <LoadFailed
                title="We couldn’t load the queue"
                message={queue.error.message}
                onRetry={() => queue.refetch()}
              />
            ) : rows.length === 0 ? (
              <QueueEmpty
                status={filters.status}
                filtered={Boolean(filters.q || filters.company || filters.assignee || filters.due)}
              />
            ) : (
              <div
                ref={shown}
                className="flex flex-col gap-3"
                aria-busy={queue.isPlaceholderData || undefined}
              >
                <QueueList items={rows} now={now} />
                {more ? (
                  <div className="flex flex-wrap items-center justify-between gap-3">
                    <Paragraph size="sm" tone="muted">
                      Showing the{' '}
                      {filters.order === 'due'
                        ? 'soonest due'
                        : filters.order === 'oldest'
                          ? 'oldest'
                          : 'newest'}{' '}
                      {rows.length.toLocaleString('en-US')} of {count(filters.status)}. Search or
                      filter to narrow the list down.
                    </Paragraph>
                    {queue.hasNextPage ? (
                      <Button
                        variant="secondary"
                        size="sm"
                        loading={queue.isFetchingNextPage}
                        onClick={showMore}
                      >
                        Show more
                      </Button>
                    ) : null}
                  </div>
                ) : null}
              </div>
            )}
          </TabPanel>
        ))}
      </Tabs>
    </div>
  )
}

/** The rows of the pages loaded so far, each request once (a request that moved while the
 * next page loaded can come back on it). */
function rowsOf(pages: QueueData[] | undefined): QueueItem[] {
  if (!pages) return []
  const seen = new Set<number>()
  return pages.flatMap((page) =>
    page.requests.filter((item) => !seen.has(item.id) && seen.add(item.id)),
  )
}

/** A tab's count: '12', '1,000+' past the count limit. */
function countLabel(count: number, capped: boolean): string {
  return `${count.toLocaleString('en-US')}${capped ? '+' : ''}`
}

/** Every company seen in the queue so far (a company filter narrows what comes back). */
function useCompaniesSeen(
  requests: { company: { id: number; name: string } | null }[] | undefined,
  selected: number | null,
) {
  const [seen, setSeen] = useState<Map<number, string>>(() => new Map())
  useEffect(() => {
    if (!requests) return
    setSeen((previous) => {
      let next: Map<number, string> | null = null
      for (const { company } of requests) {
        if (company && previous.get(company.id) !== company.name) {
          next ??= new Map(previous)
          next.set(company.id, company.name)
        }
      }
      return next ?? previous
    })
  }, [requests])
  return useMemo(() => {
    const list = [...seen].map(([id, name]) => ({ id, name }))
    if (selected !== null && !seen.has(selected)) {
      list.push({ id: selected, name: `Company #${selected}` })
    }
    return list.sort((a, b) => a.name.localeCompare(b.name))
  }, [seen, selected])
}

function QueueSkeleton() {
  return (
    <SkeletonGroup label="Loading requests" className="flex flex-col gap-3">
      {[0, 1, 2, 3].map((i) => (
        <Skeleton key={i} height="4.5rem" className="rounded-2xl" />
      ))}
    </SkeletonGroup>
  )
}

/** What fills an empty tab, when no filter narrows it. */
const EMPTY_TAB: Record<RequestStatus, string> = {
  open: 'New requests appear here as soon as employees send them.',
  in_progress: 'Requests appear here once a concierge starts them or replies.',
  closed: 'Requests appear here once they are completed.',
}

function QueueEmpty({ status, filtered }: { status: RequestStatus; filtered: boolean }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line-strong/60 bg-surface px-6 py-10 text-center">
      {filtered ? (
        <Search aria-hidden="true" className="size-8 text-primary-600" />
      ) : (
        <Assistant size="md" />
      )}
      <p className="font-semibold text-ink">
        {filtered ? 'No requests match these filters' : 'Nothing here right now'}
      </p>
      <Paragraph size="sm" tone="muted" className="max-w-sm">
        {filtered ? 'Try another search, company, assignee or deadline.' : EMPTY_TAB[status]}
      </Paragraph>
    </div>
  )
}
