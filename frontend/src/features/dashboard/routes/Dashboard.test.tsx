import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import type { CurrentUser, Schemas } from '@/api/client'
import { fakeSurveyServer } from '@/test/fakeSurveyServer'
import { makeUser, renderWithProviders } from '@/test/render'
import { RequestDrawerProvider } from '@/test/requestDrawer'
import { apiUrl, server } from '@/test/server'
import Dashboard from './Dashboard'

vi.mock('canvas-confetti', () => ({ default: vi.fn() }))

type RequestOut = Schemas['RequestOut']

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString()

function makeRequest(overrides: Partial<RequestOut> = {}): RequestOut {
  return {
    id: 1,
    external_id: '00000000-0000-4000-8000-000000000001',
    name: 'Find a dog walker',
    status: 'open',
    details: '',
    issued_at: minutesAgo(5),
    created_at: minutesAgo(5),
    last_message_at: null,
    unread: false,
    messages: [],
    survey_category_icon: 'pet',
    survey_category_id: 4,
    survey_category_image_url: null,
    survey_category_name: 'Pet',
    ...overrides,
  }
}

const survey = (id: number, name: string, for_alpha = true) => ({
  id,
  name,
  slug: `s-${id}`,
  for_alpha,
})

const RECOMMENDED = [
  {
    id: 4,
    name: 'Pet',
    icon: 'pet',
    image_url: null,
    request_surveys: [
      survey(41, 'Find a dog walker'),
      survey(42, 'Hidden beta survey', false),
      survey(43, 'Book a vet visit'),
      survey(44, 'Pet sitting while I travel'),
      survey(45, 'Fourth pet idea'),
    ],
  },
  {
    id: 2,
    name: 'Family',
    icon: 'family',
    image_url: null,
    request_surveys: [survey(21, 'Find a babysitter')],
  },
  {
    id: 3,
    name: 'Home / Moving',
    icon: 'home_moving',
    image_url: null,
    request_surveys: [survey(31, 'Plan my move')],
  },
  {
    id: 5,
    name: 'Travel',
    icon: 'travel',
    image_url: null,
    request_surveys: [survey(51, 'Plan a trip')],
  },
]

const CATEGORIES = [
  { id: 2, name: 'Family', icon: 'family', image_url: null },
  { id: 3, name: 'Home / Moving', icon: 'home_moving', image_url: null },
  { id: 4, name: 'Pet', icon: 'pet', image_url: null },
  { id: 5, name: 'Travel', icon: 'travel', image_url: null },
]

function catalogue() {
  return [
    http.get(apiUrl('/api/v1/recommended_request_categories'), () =>
      HttpResponse.json({ success: true, recommended_request_categories: RECOMMENDED }),
    ),
    http.get(apiUrl('/api/v1/survey_categories'), () =>
      HttpResponse.json({ survey_categories: CATEGORIES }),
    ),
  ]
}

function requestLists(lists: { in_progress?: RequestOut[]; open?: RequestOut[] }) {
  const calls: string[] = []
  const handlers = (['in_progress', 'open'] as const).map((bucket) =>
    http.get(apiUrl(`/api/v1/requests/${bucket}`), () => {
      calls.push(bucket)
      return HttpResponse.json({ requests: lists[bucket] ?? [] })
    }),
  )
  return { handlers, calls }
}

function renderDashboard(user: CurrentUser = makeUser({ request_count: 2 })) {
  return renderWithProviders(
    <RequestDrawerProvider>
      <Dashboard />
    </RequestDrawerProvider>,
    { route: '/dashboard', user },
  )
}

describe('Dashboard', () => {
  it("§2 dashboard: welcomes the user by first name and shows 'Brought to you by' for small screens", async () => {
    const lists = requestLists({})
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard(
      makeUser({
        first_name: 'Ada',
        request_count: 1,
        companies: [{ id: 3, name: 'Initech', image_url: null }],
      }),
    )
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument()
    const block = screen.getByRole('region', { name: 'Brought to you by' })
    expect(block).toHaveTextContent('Initech')
    expect(block).toHaveClass('sm:hidden')
    await screen.findByRole('heading', { name: 'You have no open requests' })
  })

  it('Hardening 9: while the work email is unverified the dashboard asks to check the inbox', async () => {
    const lists = requestLists({})
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard(makeUser({ request_count: 1, email_verification_pending: true }))
    expect(
      screen.getByRole('region', { name: 'Check your inbox to confirm your email address' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Resend' })).toBeInTheDocument()
    await screen.findByRole('heading', { name: 'You have no open requests' })
  })

  it('§2 dashboard: request_count 0 shows the first-request introduction (3-4 hours per task) instead of a request', async () => {
    const fake = fakeSurveyServer({ surveyId: 603 })
    const lists = requestLists({ open: [makeRequest()] })
    server.use(...catalogue(), ...lists.handlers, ...fake.list)
    const { user } = renderDashboard(makeUser({ request_count: 0 }))
    const intro = screen.getByRole('region', { name: "Let's get your first request started" })
    expect(intro).toHaveTextContent('save an estimated 3-4 hours per task')
    expect(within(intro).getByRole('img', { name: 'Penny' })).toBeInTheDocument()
    await screen.findByRole('heading', { name: 'Request ideas' })
    expect(
      screen.queryByRole('heading', { name: /Your latest request|in progress|no open requests/ }),
    ).not.toBeInTheDocument()
    expect(lists.calls).toEqual([])
    await user.click(within(intro).getByRole('button', { name: 'Create a request' }))
    expect(await screen.findByRole('dialog', { name: 'Tell us what you need' })).toBeInTheDocument()
    await waitFor(() =>
      expect(fake.state.begins).toEqual([
        { surveyId: 603, body: { for_alpha: true, start_over: false } },
      ]),
    )
  })

  it("§2 dashboard: an in-progress request is preferred, under 'Your request is in progress'", async () => {
    const lists = requestLists({
      in_progress: [
        makeRequest({
          id: 7,
          name: 'Renew my passport',
          status: 'in_progress',
          issued_at: minutesAgo(60),
        }),
      ],
      open: [
        makeRequest({
          id: 8,
          name: 'Newer queued request',
          status: 'open',
          issued_at: minutesAgo(1),
        }),
      ],
    })
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard()
    const section = await screen.findByRole('region', { name: 'Your request is in progress' })
    const card = within(section).getByRole('link')
    expect(card).toHaveAttribute('href', '/requests/7')
    expect(card).toHaveTextContent('Renew my passport')
    expect(card).toHaveTextContent('In Progress')
    expect(card).toHaveTextContent('Requested 1 hour ago')
    expect(screen.queryByText('Newer queued request')).not.toBeInTheDocument()
  })

  it("unread replies: the latest request with a reply not opened yet reads bold, marked 'New reply'", async () => {
    const lists = requestLists({
      in_progress: [
        makeRequest({ id: 7, name: 'Renew my passport', status: 'in_progress', unread: true }),
      ],
    })
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard()
    const section = await screen.findByRole('region', { name: 'Your request is in progress' })
    const card = within(section).getByRole('link', { name: /Renew my passport.*New reply/ })
    expect(card).toHaveAttribute('data-unread', 'true')
    expect(within(card).getByText('Renew my passport')).toHaveClass('font-bold')
    expect(within(card).getByText('New reply')).toBeVisible()
  })

  it('unread replies: a request whose replies are all seen carries no mark', async () => {
    const lists = requestLists({ open: [makeRequest({ id: 8, name: 'Book a vet' })] })
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard()
    const section = await screen.findByRole('region', { name: 'Your latest request' })
    const card = within(section).getByRole('link')
    expect(card).not.toHaveAttribute('data-unread')
    expect(within(card).getByText('Book a vet')).toHaveClass('font-semibold')
    expect(within(card).queryByText('New reply')).not.toBeInTheDocument()
  })

  it("§2 dashboard: otherwise the newest queued request under 'Your latest request'", async () => {
    const lists = requestLists({
      open: [
        makeRequest({ id: 9, name: 'Find a dog walker', issued_at: minutesAgo(5) }),
        makeRequest({ id: 3, name: 'Older request', issued_at: minutesAgo(500) }),
      ],
    })
    server.use(...catalogue(), ...lists.handlers)
    renderDashboard()
    const section = await screen.findByRole('region', { name: 'Your latest request' })
    const card = within(section).getByRole('link')
    expect(card).toHaveAttribute('href', '/requests/9')
    expect(card).toHaveTextContent('In Queue')
    expect(card).toHaveTextContent('Requested 5 minutes ago')
    expect(lists.calls.sort()).toEqual(['in_progress', 'open'])
  })

  it("§2 dashboard: 'You have no open requests' when nothing is queued or in progress", async () => {
    server.use(...catalogue(), ...requestLists({}).handlers)
    renderDashboard()
    const section = await screen.findByRole('region', { name: 'You have no open requests' })
    expect(within(section).queryByRole('link')).not.toBeInTheDocument()
  })

  it('§2 dashboard: skeletons while the latest request and ideas load', async () => {
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), () => new Promise(() => {})),
      http.get(apiUrl('/api/v1/recommended_request_categories'), () => new Promise(() => {})),
      http.get(apiUrl('/api/v1/survey_categories'), () => new Promise(() => {})),
    )
    renderDashboard()
    expect(screen.getByRole('status', { name: 'Loading your latest request' })).toHaveAttribute(
      'aria-busy',
      'true',
    )
    expect(screen.getByRole('status', { name: 'Loading request ideas' })).toBeInTheDocument()
    expect(screen.getByRole('status', { name: 'Loading categories' })).toBeInTheDocument()
  })

  it('§9 dashboard: request ideas show the first 3 recommended categories, at most 3 (for_alpha) surveys each, and View all', async () => {
    server.use(...catalogue(), ...requestLists({}).handlers)
    renderDashboard()
    const ideas = await screen.findByRole('region', { name: 'Request ideas' })
    const columns = await within(ideas).findAllByRole('article')
    expect(columns.map((c) => within(c).getByRole('heading').textContent)).toEqual([
      'Pet',
      'Family',
      'Home / Moving',
    ])
    const pet = columns[0]
    expect(
      within(pet)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Find a dog walker', 'Book a vet visit', 'Pet sitting while I travel'])
    expect(within(pet).getByRole('link', { name: 'View all Pet requests' })).toHaveAttribute(
      'href',
      '/requests/category/4',
    )
    expect(within(pet).getByRole('link', { name: /View all/ })).toHaveTextContent('View all')
    expect(within(ideas).queryByText('Travel')).not.toBeInTheDocument()
  })

  it('§2 dashboard: a request idea opens the request drawer on that survey', async () => {
    const fake = fakeSurveyServer({ surveyId: 43, surveyName: 'Book a vet visit' })
    server.use(...catalogue(), ...requestLists({}).handlers, ...fake.list)
    const { user } = renderDashboard()
    await user.click(await screen.findByRole('button', { name: 'Book a vet visit' }))
    expect(await screen.findByRole('dialog', { name: 'Book a vet visit' })).toBeInTheDocument()
    await waitFor(() => expect(fake.state.begins.map((b) => b.surveyId)).toEqual([43]))
  })

  it('§2 dashboard: on small screens the request ideas are tabs', async () => {
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({
        matches: false,
        media: query,
        addEventListener: () => {},
        removeEventListener: () => {},
      })),
    )
    try {
      server.use(...catalogue(), ...requestLists({}).handlers)
      const { user } = renderDashboard()
      const tabs = await screen.findAllByRole('tab')
      expect(tabs.map((t) => t.textContent)).toEqual(['Pet', 'Family', 'Home / Moving'])
      expect(screen.getByRole('tablist', { name: 'Request ideas' })).toBeInTheDocument()
      expect(screen.getByRole('tabpanel')).toHaveTextContent('Find a dog walker')
      await user.click(screen.getByRole('tab', { name: 'Family' }))
      expect(screen.getByRole('tabpanel')).toHaveTextContent('Find a babysitter')
      expect(
        within(screen.getByRole('tabpanel')).getByRole('link', {
          name: 'View all Family requests',
        }),
      ).toHaveAttribute('href', '/requests/category/2')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it("§2 dashboard: 'Explore categories' leads to every survey category; 'Create a request' opens survey 603", async () => {
    const fake = fakeSurveyServer({ surveyId: 603 })
    server.use(...catalogue(), ...requestLists({}).handlers, ...fake.list)
    const { user } = renderDashboard()
    expect(screen.getByRole('link', { name: 'Explore categories' })).toHaveAttribute(
      'href',
      '#categories',
    )
    const section = screen.getByRole('region', { name: 'All categories' })
    expect(section).toHaveAttribute('id', 'categories')
    const links = await within(section).findAllByRole('link')
    expect(links.map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Family', '/requests/category/2'],
      ['Home / Moving', '/requests/category/3'],
      ['Pet', '/requests/category/4'],
      ['Travel', '/requests/category/5'],
    ])
    await user.click(screen.getByRole('button', { name: 'Create a request' }))
    expect(await screen.findByRole('dialog', { name: 'Tell us what you need' })).toBeInTheDocument()
    await waitFor(() => expect(fake.state.begins.map((b) => b.surveyId)).toEqual([603]))
  })

  it("§ Dashboard: 'Explore categories' moves keyboard focus to the 'All categories' heading it jumps to", async () => {
    server.use(...catalogue(), ...requestLists({}).handlers)
    const { user } = renderDashboard()
    const explore = screen.getByRole('link', { name: 'Explore categories' })
    explore.focus()
    await user.keyboard('{Enter}')
    expect(screen.getByRole('heading', { name: 'All categories' })).toHaveFocus()
  })

  it('§ Dashboard: a long unbroken category name an admin wrote wraps inside its link at 375 px instead of overflowing it', async () => {
    const name = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(2)
    server.use(
      http.get(apiUrl('/api/v1/survey_categories'), () =>
        HttpResponse.json({
          survey_categories: [{ id: 9, name, icon: 'wildcard', image_url: null }],
        }),
      ),
      ...catalogue(),
      ...requestLists({}).handlers,
    )
    renderDashboard()
    const section = screen.getByRole('region', { name: 'All categories' })
    const link = await within(section).findByRole('link', { name })
    const wrapping = within(link).getByText(name).closest('.wrap-anywhere')
    expect(wrapping).not.toBeNull()
    expect(link).toContainElement(wrapping as HTMLElement)
  })

  it('§2 dashboard: with no survey category yet, the categories section says so', async () => {
    server.use(
      http.get(apiUrl('/api/v1/survey_categories'), () =>
        HttpResponse.json({ survey_categories: [] }),
      ),
      ...catalogue(),
      ...requestLists({}).handlers,
    )
    renderDashboard()
    const section = screen.getByRole('region', { name: 'All categories' })
    expect(
      await within(section).findByText(
        'No categories yet. Use Create a request to tell your concierge what you need.',
      ),
    ).toBeInTheDocument()
    expect(within(section).queryAllByRole('link')).toEqual([])
  })

  it('§8 dashboard: failed loads are logged and offer Retry', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    let ok = false
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), () =>
        ok
          ? HttpResponse.json({ requests: [] })
          : HttpResponse.json({ success: false, error: 'x' }, { status: 500 }),
      ),
      http.get(apiUrl('/api/v1/recommended_request_categories'), () =>
        HttpResponse.json({ success: false, error: 'x' }, { status: 500 }),
      ),
      http.get(apiUrl('/api/v1/survey_categories'), () =>
        HttpResponse.json({ survey_categories: [] }),
      ),
    )
    const { user } = renderDashboard()
    expect(await screen.findByText("We couldn't load your latest request.")).toBeInTheDocument()
    expect(await screen.findByText("We couldn't load request ideas.")).toBeInTheDocument()
    expect(errors).toHaveBeenCalled()
    ok = true
    const alert = screen
      .getByText("We couldn't load your latest request.")
      .closest('[role="alert"]') as HTMLElement
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(
      await screen.findByRole('heading', { name: 'You have no open requests' }),
    ).toBeInTheDocument()
  })
})
