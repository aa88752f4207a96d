import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { Member, MembersPage } from '../api'
import CompanyMembers from './CompanyMembers'

beforeEach(() => signInSession())

const COMPANY = { id: 7, name: 'Acme Corp' }

function person(id: number, overrides: Partial<Member> = {}): Member {
  return {
    id,
    email: `person${id}@acme.example`,
    first_name: 'Person',
    last_name: String(id),
    employee_id: `E-${id}`,
    status: 'active',
    source: 'sign_up',
    joined_at: '2026-10-01T10:00:00Z',
    deactivated_at: null,
    last_sign_in_at: '2026-11-20T10:00:00Z',
    is_me: false,
    ...overrides,
  }
}

const ADA = person(1, { email: 'ada@acme.example', first_name: 'Ada', last_name: 'Lovelace' })
const ME = person(2, {
  email: 'hr@acme.example',
  first_name: 'Harper',
  last_name: 'Reed',
  is_me: true,
})
const NIA = person(3, {
  email: 'nia@acme.example',
  first_name: 'Nia',
  last_name: 'Adams',
  status: 'not_joined',
  joined_at: null,
  last_sign_in_at: null,
})

/** The server's members, filtered by `search` and paged by 25, as the API does. */
function serveMembers(all: Member[], seen: URLSearchParams[] = []) {
  server.use(
    http.get(apiUrl('/api/v1/company/access'), () => HttpResponse.json({ companies: [COMPANY] })),
    http.get(apiUrl('/api/v1/company/7/members'), ({ request }) => {
      const params = new URL(request.url).searchParams
      seen.push(params)
      const search = (params.get('search') ?? '').toLowerCase()
      const page = Number(params.get('page') ?? 1)
      const status = params.get('status')
      const found = all.filter(
        (m) =>
          `${m.first_name} ${m.last_name} ${m.email} ${m.employee_id}`
            .toLowerCase()
            .includes(search) &&
          (!status || m.status === status),
      )
      const body: MembersPage = {
        company: COMPANY,
        join_policy: 'invite',
        total: found.length,
        page,
        page_size: 25,
        members: found.slice((page - 1) * 25, page * 25),
      }
      return HttpResponse.json(body)
    }),
    http.get(apiUrl('/api/v1/company/7/invites'), () =>
      HttpResponse.json({ join_policy: 'invite', invites_needed: true, invites: [] }),
    ),
  )
}

describe("issue 26 the company admin's members page", () => {
  it('issue 26 members page: people with status, join date and last sign-in; I cannot deactivate myself', async () => {
    serveMembers([NIA, ADA, ME])
    renderWithProviders(<CompanyMembers />, { user: makeUser() })
    expect(await screen.findByRole('heading', { name: 'Acme Corp: members' })).toBeInTheDocument()
    const table = await screen.findByRole('table', { name: 'People' })
    const rows = within(table).getAllByRole('row')
    expect(rows).toHaveLength(4)
    expect(rows[1]).toHaveTextContent('Nia Adams')
    expect(rows[1]).toHaveTextContent('Not joined yet')
    expect(rows[2]).toHaveTextContent('Ada Lovelace')
    expect(rows[2]).toHaveTextContent('Active')
    expect(rows[2]).toHaveTextContent('E-1')
    expect(rows[2]).toHaveTextContent('10/01/26')
    expect(rows[2]).toHaveTextContent('11/20/26')
    expect(within(rows[3]).queryByRole('button')).not.toBeInTheDocument()
    expect(rows[3]).toHaveTextContent('You')
    const sections = within(screen.getByRole('navigation', { name: 'On this page' }))
    expect(sections.getByRole('link', { name: 'People' })).toHaveAttribute(
      'href',
      '#company-people',
    )
    // People, invite links, company sign-in, SCIM, roster import and (issue 27) the activity log.
    expect(sections.getAllByRole('link')).toHaveLength(6)
    expect(screen.getByRole('link', { name: 'Company report' })).toHaveAttribute(
      'href',
      '/company?company=7',
    )
  })

  it('issue 26 members page: search sends the words and pages go 25 at a time', async () => {
    const seen: URLSearchParams[] = []
    const many = Array.from({ length: 30 }, (_, n) => person(100 + n))
    serveMembers([ADA, ...many], seen)
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    expect(await screen.findByText('Page 1 of 2 · 31 people')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 2 · 31 people')).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: 'People' })).toHaveFocus()

    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), 'lovelace')
    await waitFor(() => expect(seen.at(-1)?.get('search')).toBe('lovelace'))
    expect(seen.at(-1)?.get('page')).toBe('1')
    const table = await screen.findByRole('table', { name: 'People' })
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(2))
    expect(within(table).getByText('Ada Lovelace')).toBeInTheDocument()
  })

  it('issue 26 members page: deactivating asks first, then the focus is back on the person, who can be reactivated', async () => {
    const people = [ADA, ME]
    serveMembers(people)
    let deactivated = false
    server.use(
      http.post(apiUrl('/api/v1/company/7/members/1/deactivate'), () => {
        deactivated = true
        people[0] = { ...ADA, status: 'deactivated' }
        return HttpResponse.json(people[0])
      }),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    await user.click(await screen.findByRole('button', { name: 'Deactivate Ada Lovelace' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Deactivate Ada Lovelace?' })
    expect(dialog).toHaveTextContent('signed out everywhere')
    await waitFor(() =>
      expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus(),
    )
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }))
    expect(deactivated).toBe(false)
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Deactivate Ada Lovelace' })).toHaveFocus(),
    )

    await user.click(screen.getByRole('button', { name: 'Deactivate Ada Lovelace' }))
    const again = await screen.findByRole('alertdialog')
    await user.click(within(again).getByRole('button', { name: 'Deactivate' }))
    expect(
      await screen.findByText(
        'Ada Lovelace no longer has access through Acme Corp and was signed out.',
      ),
    ).toBeInTheDocument()
    expect(deactivated).toBe(true)
    const reactivate = await screen.findByRole('button', { name: 'Reactivate Ada Lovelace' })
    await waitFor(() => expect(reactivate).toHaveFocus())
  })

  it('issue 26 members page: a refused change shows the server’s reason', async () => {
    serveMembers([ADA, ME])
    server.use(
      http.post(apiUrl('/api/v1/company/7/members/1/deactivate'), () =>
        HttpResponse.json({ success: false, error: 'Not allowed today.' }, { status: 422 }),
      ),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    await user.click(await screen.findByRole('button', { name: 'Deactivate Ada Lovelace' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Deactivate' }),
    )
    expect(await screen.findByText('Not allowed today.')).toBeInTheDocument()
  })

  it('issue 26 members page: a phone shows each person as a card', async () => {
    const matchMedia = window.matchMedia
    window.matchMedia = ((query: string) => ({
      matches: !query.includes('48rem'),
      media: query,
      addEventListener: () => {},
      removeEventListener: () => {},
    })) as unknown as typeof window.matchMedia
    try {
      serveMembers([ADA, ME])
      renderWithProviders(<CompanyMembers />, { user: makeUser() })
      const list = await screen.findByRole('list', { name: 'People' })
      expect(screen.queryByRole('table')).not.toBeInTheDocument()
      const cards = within(list).getAllByRole('listitem')
      expect(cards[0]).toHaveTextContent('Ada Lovelace')
      expect(
        within(cards[0]).getByRole('button', { name: 'Deactivate Ada Lovelace' }),
      ).toBeVisible()
    } finally {
      window.matchMedia = matchMedia
    }
  })

  it('issue 26 invite links: made with a label, shown once with Copy, listed and revoked', async () => {
    serveMembers([ADA, ME])
    let invites: unknown[] = []
    let made: unknown
    const invite = {
      id: 11,
      label: 'Sales team',
      max_uses: 5,
      use_count: 0,
      created_at: '2026-11-27T10:00:00Z',
      expires_at: '2026-12-04T10:00:00Z',
      revoked_at: null,
      usable: true,
    }
    server.use(
      http.get(apiUrl('/api/v1/company/7/invites'), () =>
        HttpResponse.json({ join_policy: 'invite', invites_needed: true, invites }),
      ),
      http.post(apiUrl('/api/v1/company/7/invites'), async ({ request }) => {
        made = await request.json()
        invites = [invite]
        return HttpResponse.json(
          { invite, link: 'https://app.example/sign-up/acme?invite=secret-token' },
          { status: 201 },
        )
      }),
      http.post(apiUrl('/api/v1/company/7/invites/11/revoke'), () => {
        const revoked = { ...invite, revoked_at: '2026-11-27T11:00:00Z', usable: false }
        invites = [revoked]
        return HttpResponse.json(revoked)
      }),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    expect(
      await screen.findByText(/People join your company with an invite link/),
    ).toBeInTheDocument()
    const form = screen.getByRole('form', { name: 'New invite link' })
    await user.type(within(form).getByRole('textbox', { name: /Who it is for/ }), 'Sales team')
    const uses = within(form).getByRole('textbox', { name: 'People who may join' })
    await user.clear(uses)
    await user.type(uses, '0')
    await user.click(within(form).getByRole('button', { name: 'Create invite link' }))
    expect(await within(form).findByText('Enter a number from 1 to 10,000')).toBeInTheDocument()
    await user.clear(uses)
    await user.type(uses, '5')
    await user.click(within(form).getByRole('button', { name: 'Create invite link' }))

    const link = await screen.findByRole('textbox', { name: 'Your new invite link for Sales team' })
    expect(link).toHaveValue('https://app.example/sign-up/acme?invite=secret-token')
    expect(link).toHaveFocus()
    expect(made).toEqual({ label: 'Sales team', max_uses: 5, valid_days: 14 })
    expect(screen.getByText('Copy it now: it is shown only this once.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Copy link' }))
    expect(await navigator.clipboard.readText()).toBe(
      'https://app.example/sign-up/acme?invite=secret-token',
    )

    await user.click(await screen.findByRole('button', { name: 'Revoke Sales team' }))
    const dialog = await screen.findByRole('alertdialog', {
      name: 'Revoke the invite link for Sales team?',
    })
    await user.click(within(dialog).getByRole('button', { name: 'Revoke link' }))
    expect(
      await screen.findByText('The invite link for Sales team no longer works.'),
    ).toBeInTheDocument()
    expect(await screen.findByText(/Revoked/)).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: /Your new invite link/ })).not.toBeInTheDocument()
  })

  it('issue 26 members page: someone who is no company’s admin is told so', async () => {
    renderWithProviders(<CompanyMembers />, { user: makeUser() })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This page is for your company's admins only.",
    )
  })

  it('when it cannot be told whether I am an admin, the page says it failed (with Retry), not that it is for admins only', async () => {
    serveMembers([ADA, ME])
    let calls = 0
    server.use(
      http.get(apiUrl('/api/v1/company/access'), () => {
        calls += 1
        return calls === 1
          ? HttpResponse.json({ success: false, error: 'Server error' }, { status: 500 })
          : HttpResponse.json({ companies: [COMPANY] })
      }),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    const alert = await screen.findByRole('alert')
    expect(alert).not.toHaveTextContent('admins only')
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('heading', { name: 'Acme Corp: members' })).toBeInTheDocument()
  })

  it('a section that failed to load offers Retry, which loads it', async () => {
    serveMembers([ADA, ME])
    const failOnce = (path: string, body: object) => {
      let calls = 0
      server.use(
        http.get(apiUrl(path), () => {
          calls += 1
          return calls === 1 ? HttpResponse.error() : HttpResponse.json(body)
        }),
      )
    }
    failOnce('/api/v1/company/7/members', {
      company: COMPANY,
      join_policy: 'invite',
      total: 1,
      page: 1,
      page_size: 25,
      members: [ADA],
    })
    failOnce('/api/v1/company/7/invites', {
      join_policy: 'invite',
      invites_needed: true,
      invites: [],
    })
    failOnce('/api/v1/company/7/scim', {
      has_token: false,
      created_at: null,
      last_used_at: null,
      base_url: 'https://concierge.example.com/scim/v2',
    })
    failOnce('/api/v1/company/7/audit', { events: [], next_before: null })
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    const sections = ['People', 'Invite links', 'Automatic provisioning (SCIM)', 'Activity log']
    for (const name of sections) {
      const section = await screen.findByRole('region', { name })
      await user.click(await within(section).findByRole('button', { name: 'Retry' }))
    }
    expect(await screen.findByRole('table', { name: 'People' })).toHaveTextContent('Ada Lovelace')
    expect(await screen.findByText('No invite links yet.')).toBeInTheDocument()
    expect(await screen.findByText('No token: provisioning is off.')).toBeInTheDocument()
    expect(await screen.findByText('Nothing yet.')).toBeInTheDocument()
  })

  it('when the last person on the last page leaves the status shown, the page before is shown', async () => {
    const people = Array.from({ length: 26 }, (_, n) => person(100 + n))
    serveMembers(people)
    server.use(
      http.post(apiUrl('/api/v1/company/7/members/125/deactivate'), () => {
        people[25] = { ...people[25], status: 'deactivated' }
        return HttpResponse.json(people[25])
      }),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Status' }), 'Active')
    await user.click(await screen.findByRole('button', { name: 'Next' }))
    expect(await screen.findByText('Page 2 of 2 · 26 people')).toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Deactivate Person 125' }))
    const dialog = await screen.findByRole('alertdialog')
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }))

    expect(await screen.findByText('25 people')).toBeInTheDocument()
    expect(screen.getByRole('table', { name: 'People' })).toHaveTextContent('Person 100')
    expect(screen.queryByText('No one matches your search.')).not.toBeInTheDocument()
  })

  it('an admin of several companies picks the company, which starts afresh; the report link keeps it', async () => {
    serveMembers([ADA, ME])
    server.use(
      http.get(apiUrl('/api/v1/company/access'), () =>
        HttpResponse.json({ companies: [COMPANY, { id: 8, name: 'Globex' }] }),
      ),
      http.get(apiUrl('/api/v1/company/8/members'), () =>
        HttpResponse.json({
          company: { id: 8, name: 'Globex' },
          join_policy: 'invite',
          total: 0,
          page: 1,
          page_size: 25,
          members: [],
        }),
      ),
    )
    const { user } = renderWithProviders(<CompanyMembers />, { user: makeUser() })
    expect(await screen.findByRole('heading', { name: 'Acme Corp: members' })).toBeInTheDocument()
    await user.type(screen.getByRole('searchbox', { name: 'Search people' }), 'ada')
    await user.selectOptions(screen.getByRole('combobox', { name: 'Company' }), 'Globex')
    expect(await screen.findByRole('heading', { name: 'Globex: members' })).toBeInTheDocument()
    expect(screen.getByRole('searchbox', { name: 'Search people' })).toHaveValue('')
    expect(screen.getByRole('link', { name: 'Company report' })).toHaveAttribute(
      'href',
      '/company?company=8',
    )
  })
})
