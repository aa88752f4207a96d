import { act, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { Queue as QueueData } from '../api'
import { makeConcierge, makeQueue, makeQueueItem, minutesAgo } from '../test/fixtures'
import Queue, { SEARCH_DEBOUNCE_MS } from './Queue'

beforeEach(() => signInSession())
afterEach(() => vi.useRealTimers())

/** Answers the queue with `answer(params)` and records every call's query parameters. */
function queueHandler(answer: (params: URLSearchParams) => QueueData) {
  const calls: URLSearchParams[] = []
  server.use(
    http.get(apiUrl('/api/v1/concierge/requests'), ({ request }) => {
      const params = new URL(request.url).searchParams
      calls.push(params)
      return HttpResponse.json(answer(params))
    }),
    http.get(apiUrl('/api/v1/concierge/search'), ({ request }) =>
      HttpResponse.json({ query: new URL(request.url).searchParams.get('q'), results: [] }),
    ),
  )
  return calls
}

function renderQueue(route = '/concierge') {
  return renderWithProviders(<Queue />, { route, path: '/concierge', user: makeConcierge() })
}

const plain = (params: URLSearchParams) => Object.fromEntries(params.entries())

describe('issue 5 queue', () => {
  it('issue 5 queue: In Queue / In Progress / Completed tabs with the counts, due soonest first by default', async () => {
    const calls = queueHandler(() =>
      makeQueue([makeQueueItem()], { open: 1, in_progress: 4, closed: 12 }),
    )
    renderQueue()
    const tabs = within(await screen.findByRole('tablist', { name: 'Requests by status' }))
    expect(await tabs.findByRole('tab', { name: 'In Queue (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    expect(tabs.getByRole('tab', { name: 'In Progress (4)' })).toBeInTheDocument()
    expect(tabs.getByRole('tab', { name: 'Completed (12)' })).toBeInTheDocument()
    expect(plain(calls[0])).toEqual({ status: 'open', order: 'due' })
  })

  it('issue 5 queue: a row shows the request, employee, company, category, age, last message and assignee, and opens the request', async () => {
    queueHandler(() =>
      makeQueue([
        makeQueueItem({
          id: 42,
          name: 'Book a plumber',
          issued_at: minutesAgo(125),
          survey_category_name: 'Home',
          survey_category_icon: 'home',
          assignee: { id: 3, full_name: 'Alex Rivera' },
          last_message: {
            body_text: 'The sink is leaking again',
            source: 'user',
            source_name: 'Jane Doe',
            created_at: minutesAgo(5),
          },
        }),
      ]),
    )
    const { user, router } = renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    const [, row] = within(table).getAllByRole('row')
    const cells = within(row)
    expect(cells.getByRole('link', { name: 'Book a plumber' })).toHaveAttribute(
      'href',
      '/concierge/requests/42',
    )
    expect(row).toHaveTextContent('#42')
    expect(row).toHaveTextContent('Home')
    expect(row).toHaveTextContent('Jane Doe')
    expect(row).toHaveTextContent('jane.doe@example.com')
    expect(row).toHaveTextContent('Acme Corp')
    expect(row).toHaveTextContent('2 hours ago')
    expect(row).toHaveTextContent('Jane Doe: The sink is leaking again')
    expect(row).toHaveTextContent('Alex Rivera')
    // The same requests as cards for small screens.
    const cards = screen.getByRole('list', { name: 'Requests' })
    expect(within(cards).getByRole('link', { name: /Book a plumber/ })).toHaveAttribute(
      'href',
      '/concierge/requests/42',
    )
    await user.click(cells.getByRole('link', { name: 'Book a plumber' }))
    expect(router.state.location.pathname).toBe('/concierge/requests/42')
  })

  it('desk queue: an employee name or email cut short to fit the row shows in full on hover', async () => {
    const email = 'maria.gonzalez-fernandez@international-holdings.example.com'
    queueHandler(() =>
      makeQueue([
        makeQueueItem({ employee: { full_name: 'Maria Gonzalez Fernandez de la Vega', email } }),
      ]),
    )
    renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    expect(within(table).getByText(email)).toHaveAttribute('title', email)
    expect(within(table).getByText('Maria Gonzalez Fernandez de la Vega')).toHaveAttribute(
      'title',
      'Maria Gonzalez Fernandez de la Vega',
    )
    const cards = screen.getByRole('list', { name: 'Requests' })
    expect(within(cards).getByText(email)).toHaveAttribute('title', email)
  })

  it("issue 5 queue: 'Needs reply' when the employee wrote last (or nobody has), not when the concierge did", async () => {
    queueHandler(() =>
      makeQueue([
        makeQueueItem({ id: 1, name: 'Employee wrote last', waiting_on: 'concierge' }),
        makeQueueItem({
          id: 2,
          name: 'Concierge wrote last',
          waiting_on: 'employee',
          last_message: {
            body_text: 'Here are three walkers',
            source: 'life_concierge',
            source_name: 'Alex from Concierge',
            created_at: minutesAgo(2),
          },
        }),
        makeQueueItem({
          id: 3,
          name: 'Nobody wrote yet',
          last_message: null,
          waiting_on: 'concierge',
        }),
      ]),
    )
    renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    const row = (name: string) =>
      within(table).getByRole('link', { name }).closest('tr') as HTMLElement
    expect(row('Employee wrote last')).toHaveTextContent('Needs reply')
    expect(row('Concierge wrote last')).not.toHaveTextContent('Needs reply')
    expect(row('Concierge wrote last')).toHaveTextContent(
      'Alex from Concierge: Here are three walkers',
    )
    expect(row('Nobody wrote yet')).toHaveTextContent('Needs reply')
    expect(row('Nobody wrote yet')).toHaveTextContent('No messages yet')
    expect(row('Employee wrote last')).toHaveTextContent('Unassigned')
  })

  it('issue 5 queue: the tab, company, assignee and order filters become query parameters', async () => {
    const calls = queueHandler((params) =>
      makeQueue(
        [
          makeQueueItem({ id: 1, company: { id: 1, name: 'Acme Corp' } }),
          makeQueueItem({ id: 2, name: 'Fix the fence', company: { id: 2, name: 'Globex' } }),
        ],
        { in_progress: params.get('status') === 'in_progress' ? 2 : 0 },
      ),
    )
    const { user, router } = renderQueue()
    await screen.findByRole('table', { name: 'Requests' })

    await user.click(screen.getByRole('tab', { name: /In Progress/ }))
    await waitFor(() => expect(calls.at(-1)?.get('status')).toBe('in_progress'))

    const company = screen.getByRole('combobox', { name: 'Company' })
    expect(
      within(company)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['All companies', 'Acme Corp', 'Globex'])
    await user.selectOptions(company, 'Globex')
    await waitFor(() => expect(calls.at(-1)?.get('company')).toBe('2'))

    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Mine')
    await waitFor(() => expect(calls.at(-1)?.get('assignee')).toBe('mine'))

    await user.selectOptions(screen.getByRole('combobox', { name: 'Assignee' }), 'Unassigned')
    await waitFor(() => expect(calls.at(-1)?.get('assignee')).toBe('unassigned'))

    await user.selectOptions(screen.getByRole('combobox', { name: 'Order' }), 'Newest first')
    await waitFor(() =>
      expect(plain(calls.at(-1) as URLSearchParams)).toEqual({
        status: 'in_progress',
        company: '2',
        assignee: 'unassigned',
        order: 'newest',
      }),
    )
    // The filters live in the address, so a reload or a shared link keeps them.
    expect(new URLSearchParams(router.state.location.search).get('assignee')).toBe('unassigned')
    expect(screen.getByRole('tab', { name: 'In Progress (2)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
  })

  it('issue 5 queue: filters in the address are applied on load', async () => {
    const calls = queueHandler(() => makeQueue([makeQueueItem()]))
    renderQueue('/concierge?status=closed&assignee=mine&q=rex&order=newest&company=9')
    await screen.findByRole('table', { name: 'Requests' })
    expect(plain(calls[0])).toEqual({
      status: 'closed',
      company: '9',
      assignee: 'mine',
      q: 'rex',
      order: 'newest',
    })
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('rex')
    expect(screen.getByRole('combobox', { name: 'Company' })).toHaveDisplayValue('Company #9')
  })

  it('desk queue: a company id in the address that no company can have is dropped, not sent', async () => {
    const calls = queueHandler(() => makeQueue([makeQueueItem()]))
    renderQueue('/concierge?company=99999999999999999999')
    await screen.findByRole('table', { name: 'Requests' })
    expect(plain(calls[0])).toEqual({ status: 'open', order: 'due' })
    expect(screen.getByRole('combobox', { name: 'Company' })).toHaveDisplayValue('All companies')
  })

  it('issue 5 queue: the search is sent as q once typing pauses (300 ms debounce)', async () => {
    const calls = queueHandler(() => makeQueue([makeQueueItem()]))
    const { user } = renderQueue()
    await screen.findByRole('table', { name: 'Requests' })
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'jane doe')
    await waitFor(() => expect(calls.at(-1)?.get('q')).toBe('jane doe'))
    // No call for the half-typed words.
    expect(calls.map((c) => c.get('q')).filter(Boolean)).toEqual(['jane doe'])
  })

  it('desk queue: leaving a search by a link to the plain queue empties the search box too', async () => {
    const calls = queueHandler(() => makeQueue([makeQueueItem()]))
    const { router } = renderQueue('/concierge?q=rex')
    const box = await screen.findByRole('searchbox', { name: 'Search' })
    expect(box).toHaveValue('rex')
    await act(() => router.navigate('/concierge'))
    await waitFor(() => expect(box).toHaveValue(''))
    expect(screen.queryByRole('heading', { name: /Best matches/ })).not.toBeInTheDocument()
    // And the old search does not come back once the box settles.
    await act(() => new Promise((resolve) => setTimeout(resolve, SEARCH_DEBOUNCE_MS + 100)))
    expect(router.state.location.search).toBe('')
    expect(calls.at(-1)?.get('q')).toBeNull()
  })

  it('issue 5 queue: an empty tab says so; a filtered one suggests other filters', async () => {
    queueHandler(() => makeQueue([]))
    const { user } = renderQueue()
    expect(await screen.findByText('Nothing here right now')).toBeInTheDocument()
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'zzz')
    expect(await screen.findByText('No requests match these filters')).toBeInTheDocument()
  })

  it('desk queue: an empty In Progress or Completed tab says what fills it, not that new requests arrive there', async () => {
    queueHandler(() => makeQueue([]))
    renderQueue('/concierge?status=closed')
    expect(await screen.findByText('Nothing here right now')).toBeInTheDocument()
    expect(screen.getByText('Requests appear here once they are completed.')).toBeInTheDocument()
    expect(screen.queryByText(/New requests appear here/)).not.toBeInTheDocument()
  })

  it('issue 5 queue: a failed load offers to try again', async () => {
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Server trouble' }, { status: 500 })
          : HttpResponse.json(makeQueue([makeQueueItem()])),
      ),
    )
    const { user } = renderQueue()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Server trouble')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByRole('table', { name: 'Requests' })).toBeInTheDocument()
  })
})

describe('issue 30 a desk that scales', () => {
  it("issue 30 desk: a tab with more requests than the count limit shows '1,000+'", async () => {
    queueHandler(() =>
      makeQueue(
        [makeQueueItem()],
        { open: 1000, in_progress: 7, closed: 1000 },
        { counts_capped: ['open', 'closed'], next_cursor: 'due.0.1.1.101' },
      ),
    )
    renderQueue()
    const tabs = within(await screen.findByRole('tablist', { name: 'Requests by status' }))
    expect(await tabs.findByRole('tab', { name: 'In Queue (1,000+)' })).toBeInTheDocument()
    expect(tabs.getByRole('tab', { name: 'In Progress (7)' })).toBeInTheDocument()
    expect(tabs.getByRole('tab', { name: 'Completed (1,000+)' })).toBeInTheDocument()
    expect(
      screen.getByText(/Showing the soonest due 1 of 1,000\+\. Search or filter/),
    ).toBeInTheDocument()
  })

  it("issue 30 desk: 'Show more' asks for the page after the last one's cursor and adds it", async () => {
    const calls = queueHandler((params) =>
      params.get('cursor') === 'due.0.1.1.101'
        ? makeQueue([makeQueueItem({ id: 102, name: 'Second page' })], { open: 2 })
        : makeQueue(
            [makeQueueItem({ id: 101, name: 'First page' })],
            { open: 2 },
            {
              next_cursor: 'due.0.1.1.101',
            },
          ),
    )
    const { user } = renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    expect(within(table).getByRole('link', { name: 'First page' })).toBeInTheDocument()
    expect(screen.getByText(/Showing the soonest due 1 of 2\./)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Show more' }))
    expect(await within(table).findByRole('link', { name: 'Second page' })).toBeInTheDocument()
    expect(within(table).getByRole('link', { name: 'First page' })).toBeInTheDocument()
    expect(plain(calls.at(-1) as URLSearchParams)).toEqual({
      status: 'open',
      order: 'due',
      cursor: 'due.0.1.1.101',
    })
    expect(screen.queryByRole('button', { name: 'Show more' })).not.toBeInTheDocument()
    expect(screen.queryByText(/Showing the soonest due/)).not.toBeInTheDocument()
  })

  it("desk queue: after 'Show more' focus is on the first request it added, not lost with the button", async () => {
    queueHandler((params) =>
      params.get('cursor')
        ? makeQueue([makeQueueItem({ id: 102, name: 'Second page' })], { open: 2 })
        : makeQueue(
            [makeQueueItem({ id: 101, name: 'First page' })],
            { open: 2 },
            { next_cursor: 'due.0.1.1.101' },
          ),
    )
    const { user } = renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    screen.getByRole('button', { name: 'Show more' }).focus()
    await user.keyboard('{Enter}')
    const added = await within(table).findByRole('link', { name: 'Second page' })
    await waitFor(() => expect(added).toHaveFocus())
  })
})

describe('issue 12 reply-time promises', () => {
  const inMinutes = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString()
  const sla = (state: 'overdue' | 'due_soon' | 'on_track' | 'paused', due: string | null) => ({
    state,
    due_at: due,
    target: due ? ('first_response' as const) : null,
  })

  it('issue 12 SLA: each row shows time left or overdue, and overdue rows stand out', async () => {
    queueHandler(() =>
      makeQueue([
        makeQueueItem({ id: 1, name: 'Late', sla: sla('overdue', minutesAgo(130)) }),
        makeQueueItem({ id: 2, name: 'Soon', sla: sla('due_soon', inMinutes(35)) }),
        makeQueueItem({ id: 3, name: 'Fine', sla: sla('on_track', inMinutes(180)) }),
        makeQueueItem({ id: 4, name: 'Waiting', sla: sla('paused', null) }),
      ]),
    )
    renderQueue()
    const table = await screen.findByRole('table')
    const row = (id: number) => table.querySelector(`tr[data-request-id="${id}"]`) as HTMLElement
    await waitFor(() => expect(row(1)).toBeTruthy())
    expect(within(row(1)).getByText(/Overdue 2 h 10 min/)).toBeInTheDocument()
    expect(row(1)).toHaveAttribute('data-overdue', 'true')
    expect(within(row(2)).getByText(/Due in 35 min/)).toBeInTheDocument()
    expect(row(2)).not.toHaveAttribute('data-overdue')
    expect(within(row(3)).getByText(/Due in 3 h/)).toBeInTheDocument()
    expect(within(row(4)).getByText(/Clock paused/)).toBeInTheDocument()
  })

  it('desk SLA: a deadline that passes while the queue is open turns the row overdue, not a green "Overdue"', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    queueHandler(() =>
      makeQueue([
        makeQueueItem({ id: 1, name: 'Close call', sla: sla('on_track', inMinutes(61)) }),
      ]),
    )
    renderQueue()
    const table = await screen.findByRole('table')
    const row = () => table.querySelector('tr[data-request-id="1"]') as HTMLElement
    await waitFor(() => expect(row()).toBeTruthy())
    const badge = () =>
      within(row())
        .getByText(/^(Due in|Overdue)/)
        .closest('[data-sla]')
    expect(badge()).toHaveAttribute('data-sla', 'on_track')

    act(() => {
      vi.advanceTimersByTime(2 * 60_000)
    })
    expect(badge()).toHaveAttribute('data-sla', 'due_soon')
    expect(row()).not.toHaveAttribute('data-overdue')

    act(() => {
      vi.advanceTimersByTime(60 * 60_000)
    })
    expect(within(row()).getByText(/Overdue/)).toBeInTheDocument()
    expect(badge()).toHaveAttribute('data-sla', 'overdue')
    expect(row()).toHaveAttribute('data-overdue', 'true')
  })

  it("issue 12 SLA: the 'Deadline' filter asks for overdue or due-within-the-hour requests", async () => {
    const calls = queueHandler(() => makeQueue([]))
    renderQueue('/concierge?due=soon&order=oldest')
    await waitFor(() => expect(calls.length).toBeGreaterThan(0))
    expect(plain(calls[0])).toEqual({ status: 'open', order: 'oldest', due: 'soon' })
    expect(await screen.findByText('No requests match these filters')).toBeInTheDocument()
  })
})

describe('issue 12 full-text search', () => {
  it('issue 12 search: ranked results with the matching words highlighted, and nothing else as HTML', async () => {
    queueHandler(() => makeQueue([]))
    const asked: string[] = []
    server.use(
      http.get(apiUrl('/api/v1/concierge/search'), ({ request }) => {
        asked.push(new URL(request.url).searchParams.get('q') ?? '')
        return HttpResponse.json({
          query: 'beagle',
          results: [
            {
              ...makeQueueItem({ id: 7, name: 'Find a dog walker' }),
              match: 'request',
              snippet_html: 'Breed: <mark>Beagle</mark> &amp; <img src=x onerror=alert(1)>',
              rank: 0.9,
            },
            {
              ...makeQueueItem({ id: 9, name: 'Dinner' }),
              match: 'note',
              snippet_html: 'Loves his <mark>beagle</mark>',
              rank: 0.2,
            },
          ],
        })
      }),
    )
    renderQueue('/concierge?q=beagle')
    const list = await screen.findByRole('list', { name: 'Search results for beagle' })
    const items = within(list).getAllByRole('listitem')
    expect(items.map((i) => i.getAttribute('data-request-id'))).toEqual(['7', '9'])
    const marks = items[0].querySelectorAll('mark')
    expect([...marks].map((m) => m.textContent)).toEqual(['Beagle'])
    expect(items[0].querySelector('img')).toBeNull()
    expect(items[0]).toHaveTextContent('Breed: Beagle & <img src=x onerror=alert(1)>')
    expect(within(items[1]).getByText('Internal note')).toBeInTheDocument()
    expect(asked).toEqual(['beagle'])
  })

  it('issue 30 search: a search the server stopped says so, with its message and a retry, apart from the queue', async () => {
    queueHandler(() => makeQueue([makeQueueItem({ name: 'Book a plumber' })]))
    let stopped = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/search'), () =>
        stopped
          ? HttpResponse.json(
              {
                success: false,
                error: 'This took too long, so we stopped it. Please try again in a moment.',
              },
              { status: 504 },
            )
          : HttpResponse.json({ query: 'plumber', results: [] }),
      ),
    )
    renderQueue('/concierge?q=plumber')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t finish this search')
    expect(alert).toHaveTextContent(
      'This took too long, so we stopped it. Please try again in a moment.',
    )
    expect(alert).not.toHaveTextContent('We couldn’t load the queue')
    const panel = await screen.findByRole('tabpanel')
    expect((await within(panel).findAllByText('Book a plumber')).length).toBeGreaterThan(0)
    stopped = false
    within(alert).getByRole('button', { name: 'Try again' }).click()
    expect(
      await screen.findByText('No request, survey answer, message or note matches every word.'),
    ).toBeInTheDocument()
  })
})

describe('issue 29 desk keys', () => {
  const twoRequests = () =>
    queueHandler(() =>
      makeQueue([
        makeQueueItem({ id: 1, name: 'Book a plumber' }),
        makeQueueItem({ id: 2, name: 'Find a dog walker' }),
      ]),
    )

  it('issue 29 desk keys: / goes to the search box, which names its shortcut', async () => {
    twoRequests()
    const { user } = renderQueue()
    await screen.findByRole('table', { name: 'Requests' })
    await user.keyboard('/')
    const search = screen.getByRole('searchbox', { name: 'Search' })
    expect(search).toHaveFocus()
    expect(search).toHaveAttribute('aria-keyshortcuts', '/')
    // Typed into the box, the same key is just a character.
    await user.keyboard('a/b')
    expect(search).toHaveValue('a/b')
  })

  it('issue 29 desk keys: j and k move to the next and the previous request, Enter opens it', async () => {
    twoRequests()
    const { user, router } = renderQueue()
    const table = await screen.findByRole('table', { name: 'Requests' })
    const first = within(table).getByRole('link', { name: 'Book a plumber' })
    const second = within(table).getByRole('link', { name: 'Find a dog walker' })
    await user.keyboard('j')
    expect(first).toHaveFocus()
    await user.keyboard('j')
    expect(second).toHaveFocus()
    await user.keyboard('k')
    expect(first).toHaveFocus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(router.state.location.pathname).toBe('/concierge/requests/1'))
  })

  it('issue 29 desk keys: a key with a modifier is the browser’s, not the queue’s', async () => {
    twoRequests()
    const { user } = renderQueue()
    await screen.findByRole('table', { name: 'Requests' })
    await user.keyboard('{Control>}j{/Control}')
    expect(document.body).toHaveFocus()
  })
})
