import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ChartColumn, ChevronLeft, ChevronRight, Search } from 'lucide-react'
import { Fragment, useEffect, useId, useRef, useState } from 'react'
import { useSearchParams } from 'react-router'
import {
  Button,
  ConfirmDialog,
  controlClassName,
  cx,
  focusRing,
  Heading,
  Paragraph,
  RetryAlert,
  SelectField,
  Skeleton,
  useToast,
} from '@/design-system'
import {
  companyAccessQuery,
  type Member,
  type MemberStatus,
  type MembersFilter,
  memberAccessChange,
  membersQuery,
} from '../api'
import { ActivityLog } from '../components/ActivityLog'
import { CompanyPicker } from '../components/CompanyPicker'
import { InviteLinks } from '../components/InviteLinks'
import { STATUS_LABELS } from '../components/MemberStatusBadge'
import { MembersList, memberName } from '../components/MembersList'
import { RosterImport } from '../components/RosterImport'
import { ScimSettings } from '../components/ScimSettings'
import { SsoSettings } from '../components/SsoSettings'

const SEARCH_DELAY_MS = 300

/** The page's sections by their headings' ids: a long page on a phone. */
const SECTIONS = [
  ['company-people', 'People'],
  ['invite-links', 'Invite links'],
  ['sso-settings', 'Company sign-in'],
  ['scim-settings', 'SCIM'],
  ['roster-import', 'Roster import'],
  ['activity-log', 'Activity log'],
] as const

/** The company the page is about: `?company=<id>` for an admin of several, else their first. */
function useCompany() {
  const access = useQuery(companyAccessQuery())
  const [params] = useSearchParams()
  const wanted = Number(params.get('company'))
  const companies = access.data ?? []
  const company = companies.find((c) => c.id === wanted) ?? companies[0]
  return { access, company }
}

/** The search box's words, sent once typing pauses. */
function useDebounced(value: string): string {
  const [settled, setSettled] = useState(value)
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), SEARCH_DELAY_MS)
    return () => clearTimeout(timer)
  }, [value])
  return settled
}

const STATUS_OPTIONS = [
  { value: '', label: 'Everyone' },
  ...(Object.keys(STATUS_LABELS) as MemberStatus[]).map((key) => ({
    value: key,
    label: STATUS_LABELS[key],
  })),
]

function Filters({
  search,
  onSearch,
  status,
  onStatus,
}: {
  search: string
  onSearch: (value: string) => void
  status: MemberStatus | ''
  onStatus: (value: MemberStatus | '') => void
}) {
  const searchId = useId()
  return (
    <div className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex min-w-0 flex-1 flex-col gap-1.5">
        <label htmlFor={searchId} className="text-sm font-semibold text-ink">
          Search people
        </label>
        <div className="relative">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted"
          />
          <input
            id={searchId}
            type="search"
            value={search}
            maxLength={100}
            autoComplete="off"
            placeholder="Name, email or employee ID"
            onChange={(event) => onSearch(event.target.value)}
            className={controlClassName(false, 'ps-9')}
          />
        </div>
      </div>
      <SelectField
        label="Status"
        value={status}
        options={STATUS_OPTIONS}
        onChange={(value) => onStatus(value as MemberStatus | '')}
        className="sm:w-48"
      />
    </div>
  )
}

function Pager({
  page,
  pages,
  total,
  onPage,
}: {
  page: number
  pages: number
  total: number
  onPage: (page: number) => void
}) {
  return (
    <nav aria-label="Pages of people" className="flex items-center justify-between gap-3">
      <Button
        size="sm"
        variant="secondary"
        icon={<ChevronLeft />}
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </Button>
      <p className="text-sm text-ink-muted" aria-live="polite">
        Page {page} of {pages} · {total} {total === 1 ? 'person' : 'people'}
      </p>
      <Button
        size="sm"
        variant="secondary"
        icon={<ChevronRight />}
        iconPosition="end"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </Button>
    </nav>
  )
}

function People({ companyId, companyName }: { companyId: number; companyName: string }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [search, setSearch] = useState('')
  const [status, setStatus] = useState<MemberStatus | ''>('')
  const [page, setPage] = useState(1)
  const settled = useDebounced(search.trim())
  const filter: MembersFilter = { search: settled, status, page }
  const members = useQuery(membersQuery(companyId, filter))
  const [confirming, setConfirming] = useState<Member | null>(null)
  const buttons = useRef(new Map<number, HTMLButtonElement>())
  const listTop = useRef<HTMLHeadingElement>(null)

  // A new search or status starts again at the first page.
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs when the filter changes
  useEffect(() => setPage(1), [settled, status])

  // The person whose button takes the focus back once the change has settled (a button that
  // shows its progress is disabled until then, and a disabled button cannot take the focus).
  const focusAfter = useRef<number | null>(null)
  const change = useMutation({
    mutationFn: (member: Member) =>
      memberAccessChange(
        companyId,
        member.id,
        member.status === 'deactivated' ? 'reactivate' : 'deactivate',
      ),
    onSuccess: (updated) => {
      const name = memberName(updated)
      toast({
        message:
          updated.status === 'deactivated'
            ? `${name} no longer has access through ${companyName} and was signed out.`
            : `${name} has access again and can sign in.`,
        severity: 'success',
        autoDismiss: true,
      })
      queryClient.setQueryData(membersQuery(companyId, filter).queryKey, (shown) =>
        shown
          ? { ...shown, members: shown.members.map((m) => (m.id === updated.id ? updated : m)) }
          : shown,
      )
      void queryClient.invalidateQueries({ queryKey: ['company', companyId, 'members'] })
    },
    onError: (error) => toast({ message: (error as Error).message, severity: 'error' }),
    onSettled: (_data, _error, member) => {
      focusAfter.current = member.id
    },
  })
  // Back on the person's button, which now offers the opposite change (or on the list, when
  // the person left it: a status filter).
  useEffect(() => {
    const id = focusAfter.current
    if (change.isPending || id === null) return
    focusAfter.current = null
    requestAnimationFrame(() => (buttons.current.get(id) ?? listTop.current)?.focus())
  }, [change.isPending])

  const onPage = (next: number) => {
    setPage(next)
    listTop.current?.focus()
  }

  const data = members.data
  const pages = data ? Math.max(1, Math.ceil(data.total / data.page_size)) : 1
  // The last person of the last page left the status shown (deactivated): the page before.
  useEffect(() => {
    if (data && data.members.length === 0 && data.page > 1) setPage(pages)
  }, [data, pages])
  const deactivating = confirming?.status !== 'deactivated'
  return (
    <section aria-labelledby="company-people" className="flex flex-col gap-4">
      <h2
        id="company-people"
        ref={listTop}
        tabIndex={-1}
        className="text-lg font-semibold text-ink outline-none"
      >
        People
      </h2>
      <Filters search={search} onSearch={setSearch} status={status} onStatus={setStatus} />
      {members.isPending ? (
        <Skeleton height="12rem" className="rounded-2xl" />
      ) : members.isError ? (
        <RetryAlert message={members.error.message} onRetry={() => void members.refetch()} />
      ) : data && data.members.length === 0 ? (
        <Paragraph tone="muted" role="status">
          {settled || status ? 'No one matches your search.' : 'No one has joined yet.'}
        </Paragraph>
      ) : data ? (
        <>
          <MembersList
            members={data.members}
            busyId={change.isPending ? (change.variables?.id ?? null) : null}
            onChange={setConfirming}
            buttonRef={(id, element) => {
              if (element) buttons.current.set(id, element)
              else buttons.current.delete(id)
            }}
          />
          {pages > 1 ? (
            <Pager page={data.page} pages={pages} total={data.total} onPage={onPage} />
          ) : (
            <p className="text-sm text-ink-muted">
              {data.total} {data.total === 1 ? 'person' : 'people'}
            </p>
          )}
        </>
      ) : null}
      <ConfirmDialog
        isOpen={confirming !== null}
        message={
          confirming
            ? `${deactivating ? 'Deactivate' : 'Reactivate'} ${memberName(confirming)}?`
            : ''
        }
        description={
          deactivating
            ? `They lose access through ${companyName} at once and are signed out everywhere (unless another employer still gives them access). Their requests stay.`
            : `They get access through ${companyName} again and can sign in.`
        }
        confirmLabel={deactivating ? 'Deactivate' : 'Reactivate'}
        cancelLabel="Cancel"
        destructive={deactivating}
        onCancel={() => {
          const id = confirming?.id
          setConfirming(null)
          if (id !== undefined) requestAnimationFrame(() => buttons.current.get(id)?.focus())
        }}
        onConfirm={() => {
          if (confirming) change.mutate(confirming)
          setConfirming(null)
        }}
      />
    </section>
  )
}

/**
 * /company/members: the company admin's people (status, join date, last sign-in; never
 * anything about their requests), deactivating and reactivating them, and invite links.
 */
export default function CompanyMembers() {
  const { access, company } = useCompany()

  if (access.isPending) {
    return (
      <div className="flex flex-col gap-4">
        <Skeleton height="2.5rem" className="max-w-sm" />
        <Skeleton height="12rem" className="rounded-2xl" />
      </div>
    )
  }
  if (access.isError) {
    return (
      <div className="flex flex-col gap-3">
        <Heading level={1} size="lg">
          Members
        </Heading>
        <RetryAlert message={access.error.message} onRetry={() => void access.refetch()} />
      </div>
    )
  }
  if (!company) {
    return (
      <div className="flex flex-col gap-3">
        <Heading level={1} size="lg">
          Members
        </Heading>
        <Paragraph role="alert">This page is for your company's admins only.</Paragraph>
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-8">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="flex flex-col gap-1">
          <Heading level={1} size="lg">
            {company.name}: members
          </Heading>
          <Paragraph size="sm" tone="muted">
            Who has access through your company. You see when people joined and last signed in,
            never what they asked for.
          </Paragraph>
        </div>
        <CompanyPicker companyId={company.id} />
        <Button variant="secondary" icon={<ChartColumn />} to={`/company?company=${company.id}`}>
          Company report
        </Button>
      </div>
      <nav aria-label="On this page">
        <ul className="flex flex-wrap gap-2">
          {SECTIONS.map(([id, label]) => (
            <li key={id}>
              <a
                href={`#${id}`}
                className={cx(
                  'inline-flex min-h-11 items-center rounded-full border border-line bg-surface px-4 text-sm font-semibold text-ink-muted hover:text-ink',
                  focusRing,
                )}
              >
                {label}
              </a>
            </li>
          ))}
        </ul>
      </nav>
      {/* Another company starts afresh: no search, preview or new link of the last one. */}
      <Fragment key={company.id}>
        <People companyId={company.id} companyName={company.name} />
        <InviteLinks companyId={company.id} />
        <SsoSettings companyId={company.id} />
        {/* Provisioning: the identity provider's SCIM connection, or the roster file. */}
        <ScimSettings companyId={company.id} />
        <RosterImport companyId={company.id} />
        <ActivityLog companyId={company.id} />
      </Fragment>
    </div>
  )
}
