import { onlineManager } from '@tanstack/react-query'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { requestKeys } from '@/features/conversation'
import { renderWithProviders, signInSession } from '@/test/render'
import { listHandlers, listItem, makeRequest, minutesAgo } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import Requests from './Requests'

const openDrawer = vi.fn()
vi.mock('@/features/request-drawer', () => ({
  INTRO_SURVEY_ID: 603,
  useRequestDrawer: () => ({ open: openDrawer, close: vi.fn(), target: null }),
}))

beforeEach(() => {
  openDrawer.mockReset()
  signInSession()
})

afterEach(() => onlineManager.setOnline(true))

function renderRequests(route = '/requests') {
  return renderWithProviders(<Requests />, { route, path: '/requests' })
}

describe('Requests', () => {
  it('§2 Requests: page heading and a skeleton while loading', async () => {
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), async () => {
        await new Promise((r) => setTimeout(r, 50))
        return HttpResponse.json({ requests: [] })
      }),
    )
    renderRequests()
    expect(screen.getByRole('heading', { level: 1, name: 'Requests' })).toBeInTheDocument()
    const skeleton = screen.getByRole('status', { name: 'Loading requests' })
    expect(skeleton).toHaveAttribute('aria-busy', 'true')
    expect(await screen.findByRole('tab', { name: 'To do (0)' })).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Loading requests' })).not.toBeInTheDocument()
  })

  it("§2 Requests: 'To do (n)' counts in-progress and queued; in-progress listed first", async () => {
    server.use(
      ...listHandlers({
        in_progress: [makeRequest({ id: 1, name: 'Find a plumber', status: 'in_progress' })],
        open: [
          makeRequest({ id: 2, name: 'Book a vet' }),
          makeRequest({ id: 3, name: 'Plan a trip' }),
          makeRequest({ id: 4, name: 'Renew passport' }),
        ],
      }),
    )
    renderRequests()
    expect(await screen.findByRole('tab', { name: 'To do (4)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    const panel = screen.getByRole('tabpanel')
    const headings = within(panel).getAllByRole('heading', { level: 2 })
    expect(headings.map((h) => h.textContent)).toEqual([
      '1 request in progress',
      '3 requests are in queue',
    ])
    const links = within(panel).getAllByRole('link')
    expect(links.map((l) => l.getAttribute('href'))).toEqual([
      '/requests/1',
      '/requests/2',
      '/requests/3',
      '/requests/4',
    ])
    const inProgress = screen.getByRole('region', { name: '1 request in progress' })
    expect(within(inProgress).getByText('Find a plumber')).toBeInTheDocument()
    expect(within(inProgress).getByText('In Progress')).toBeInTheDocument()
    const queue = screen.getByRole('region', { name: '3 requests are in queue' })
    expect(within(queue).getAllByText('In Queue')).toHaveLength(3)
  })

  it("§2 Requests: '2 requests in progress' and '1 request is in queue'", async () => {
    server.use(
      ...listHandlers({
        in_progress: [
          makeRequest({ status: 'in_progress' }),
          makeRequest({ status: 'in_progress' }),
        ],
        open: [makeRequest()],
      }),
    )
    renderRequests()
    expect(
      await screen.findByRole('heading', { name: '2 requests in progress' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('heading', { name: '1 request is in queue' })).toBeInTheDocument()
  })

  it("§2 Requests: 'Completed (n)' tab only when completed requests exist", async () => {
    server.use(...listHandlers({ open: [makeRequest()] }))
    const { unmount } = renderRequests()
    expect(await screen.findByRole('tab', { name: 'To do (1)' })).toBeInTheDocument()
    expect(screen.getAllByRole('tab')).toHaveLength(1)
    expect(screen.queryByRole('tab', { name: /Completed/ })).not.toBeInTheDocument()
    unmount()

    server.use(
      ...listHandlers({
        open: [makeRequest()],
        completed: [
          makeRequest({ name: 'Fix the sink', status: 'closed' }),
          makeRequest({ status: 'closed' }),
        ],
      }),
    )
    const { user } = renderRequests()
    const completed = await screen.findByRole('tab', { name: 'Completed (2)' })
    await user.click(completed)
    expect(completed).toHaveAttribute('aria-selected', 'true')
    const panel = screen.getByRole('tabpanel')
    expect(within(panel).getByText('Fix the sink')).toBeInTheDocument()
    expect(within(panel).getAllByText('Completed')).toHaveLength(2)
  })

  it('§4 Tabs: stable label-derived ids, kept in the address; swiping 50 px changes tab', async () => {
    server.use(
      ...listHandlers({ open: [makeRequest()], completed: [makeRequest({ status: 'closed' })] }),
    )
    const { user, router } = renderRequests()
    const todo = await screen.findByRole('tab', { name: 'To do (1)' })
    expect(todo.id).toMatch(/To_do$/)
    const completed = screen.getByRole('tab', { name: 'Completed (1)' })
    expect(completed.id).toMatch(/Completed$/)
    await user.click(completed)
    expect(router.state.location.search).toBe('?tab=Completed')

    const area = screen.getByRole('tabpanel').parentElement as HTMLElement
    fireEvent.touchStart(area, { touches: [{ clientX: 100, clientY: 100 }] })
    fireEvent.touchEnd(area, { changedTouches: [{ clientX: 160, clientY: 100 }] })
    expect(screen.getByRole('tab', { name: 'To do (1)' })).toHaveAttribute('aria-selected', 'true')
    expect(router.state.location.search).toBe('')
  })

  it('§4 Tabs: opening with ?tab=Completed selects the Completed tab', async () => {
    server.use(
      ...listHandlers({ completed: [makeRequest({ name: 'Done thing', status: 'closed' })] }),
    )
    renderRequests('/requests?tab=Completed')
    expect(await screen.findByRole('tab', { name: 'Completed (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Done thing')
  })

  it("§2 Requests: empty state 'No open requests' with a 'Create a request' button", async () => {
    server.use(...listHandlers({}))
    const { user } = renderRequests()
    expect(await screen.findByRole('heading', { name: 'No open requests' })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Penny' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Create a request' }))
    expect(openDrawer).toHaveBeenCalledWith({ surveyId: 603, surveyName: 'Tell us what you need' })
  })

  it('§2 Requests: each card shows status, requested time and last message hint', async () => {
    server.use(
      ...listHandlers({
        open: [
          makeRequest({
            id: 9,
            name: 'Find a dog walker',
            issued_at: minutesAgo(5),
            last_message_at: minutesAgo(120),
            survey_category_icon: 'pet',
          }),
        ],
      }),
    )
    renderRequests()
    const card = await screen.findByRole('link', { name: /Find a dog walker/ })
    expect(card).toHaveAttribute('href', '/requests/9')
    expect(card).toHaveTextContent('In Queue')
    expect(card).toHaveTextContent('Requested 5 minutes ago')
    expect(card).toHaveTextContent('Last message 2 hours ago')
    expect(card.querySelector('[data-category-icon="pet"]')).not.toBeNull()
  })

  it('§2 Requests: a long request name shows on up to two lines at 375 px, not cut to one', async () => {
    const name = 'Find a babysitter for Saturday evening while we are at the school fundraiser'
    server.use(...listHandlers({ open: [makeRequest({ name })] }))
    renderRequests()
    const card = await screen.findByRole('link', { name: new RegExp(name) })
    const shown = within(card).getByText(name)
    expect(shown).toHaveClass('line-clamp-2', 'wrap-anywhere', 'min-w-0')
    expect(shown).not.toHaveClass('truncate')
  })

  it("unread replies: a request with a reply not opened yet reads bold with a 'New reply' mark, in every tab", async () => {
    server.use(
      ...listHandlers({
        in_progress: [
          makeRequest({ id: 1, name: 'Find a plumber', status: 'in_progress', unread: true }),
          makeRequest({ id: 2, name: 'Plan a trip', status: 'in_progress' }),
        ],
        completed: [makeRequest({ id: 3, name: 'Renew passport', status: 'closed', unread: true })],
      }),
    )
    const { user } = renderRequests()
    const unread = await screen.findByRole('link', { name: /Find a plumber/ })
    expect(unread).toHaveAttribute('data-unread', 'true')
    // Said in words inside the card's name, not by colour alone.
    expect(unread).toHaveAccessibleName(/New reply/)
    expect(within(unread).getByText('Find a plumber')).toHaveClass('font-bold')
    const read = screen.getByRole('link', { name: /Plan a trip/ })
    expect(read).not.toHaveAttribute('data-unread')
    expect(read).not.toHaveAccessibleName(/New reply/)
    expect(within(read).getByText('Plan a trip')).not.toHaveClass('font-bold')

    await user.click(screen.getByRole('tab', { name: 'Completed (1)' }))
    const done = await screen.findByRole('link', { name: /Renew passport/ })
    expect(within(done).getByText('New reply')).toBeVisible()
  })

  it('§4 Request status: a list entry without a status gets its list’s status', async () => {
    server.use(
      ...listHandlers({
        in_progress: [{ ...makeRequest({ name: 'No status' }), status: undefined }],
      }),
    )
    renderRequests()
    const card = await screen.findByRole('link', { name: /No status/ })
    expect(card).toHaveTextContent('In Progress')
  })

  it('§8 Requests: a failed list fetch is logged and offers a retry', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Boom' }, { status: 500 })
          : HttpResponse.json({ requests: [] }),
      ),
    )
    const { user } = renderRequests()
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t load your requests', level: 2 }),
    ).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent('We couldn’t load your requests')
    expect(errors).toHaveBeenCalledWith('Failed to fetch requests', expect.anything())
    fail = false
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    await waitFor(() => expect(screen.getByRole('tab', { name: 'To do (0)' })).toBeInTheDocument())
  })

  it('§4 Tabs: ?tab=Completed without completed requests shows To do, and a completed request arriving later does not switch the view', async () => {
    const lists: Parameters<typeof listHandlers>[0] = {
      open: [makeRequest({ name: 'Book a vet' })],
    }
    server.use(...listHandlers(lists))
    const { router, queryClient } = renderRequests('/requests?tab=Completed')
    expect(await screen.findByRole('tab', { name: 'To do (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    await waitFor(() => expect(router.state.location.search).toBe(''))

    lists.completed = [makeRequest({ name: 'Renew passport', status: 'closed' })]
    await act(() => queryClient.invalidateQueries({ queryKey: requestKeys.lists() }))
    expect(await screen.findByRole('tab', { name: 'Completed (1)' })).toHaveAttribute(
      'aria-selected',
      'false',
    )
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Book a vet')
  })

  it('§2 Requests: a live update that moves the focused request from the queue to in progress keeps focus on it', async () => {
    const vet = makeRequest({ id: 21, name: 'Book a vet' })
    const lists: Parameters<typeof listHandlers>[0] = {
      in_progress: [makeRequest({ id: 20, name: 'Find a plumber', status: 'in_progress' })],
      open: [vet],
    }
    server.use(...listHandlers(lists))
    const { queryClient } = renderRequests()
    ;(await screen.findByRole('link', { name: /Book a vet/ })).focus()

    lists.in_progress = [{ ...vet, status: 'in_progress' }, ...(lists.in_progress ?? [])]
    lists.open = []
    await act(() => queryClient.invalidateQueries({ queryKey: requestKeys.lists() }))
    const moved = await screen.findByRole('link', { name: /Book a vet.*In Progress/ })
    await waitFor(() => expect(moved).toHaveFocus())
  })

  it('§2 Requests: a live update that takes the focused request or tab away moves focus to the selected tab, not the page', async () => {
    const vet = makeRequest({ id: 31, name: 'Book a vet' })
    const lists: Parameters<typeof listHandlers>[0] = { open: [vet] }
    server.use(...listHandlers(lists))
    const { queryClient, user } = renderRequests()
    ;(await screen.findByRole('link', { name: /Book a vet/ })).focus()

    // Completed: it leaves To do for the Completed tab, which is not the one shown.
    lists.open = []
    lists.completed = [{ ...vet, status: 'closed' }]
    await act(() => queryClient.invalidateQueries({ queryKey: requestKeys.lists() }))
    const todo = await screen.findByRole('tab', { name: 'To do (0)' })
    await waitFor(() => expect(todo).toHaveFocus())

    // Reopened while its tab has focus: the Completed tab goes, focus stays on the tabs.
    await user.click(screen.getByRole('tab', { name: 'Completed (1)' }))
    lists.open = [vet]
    lists.completed = []
    await act(() => queryClient.invalidateQueries({ queryKey: requestKeys.lists() }))
    const back = await screen.findByRole('tab', { name: 'To do (1)' })
    await waitFor(() => expect(back).toHaveFocus())
    expect(back).toHaveAttribute('aria-selected', 'true')
  })

  it('§8 Requests: a background refetch that fails keeps the list on screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let fail = false
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), ({ params }) =>
        fail
          ? HttpResponse.json({ success: false, error: 'Boom' }, { status: 502 })
          : HttpResponse.json({
              requests:
                params.bucket === 'open' ? [listItem(makeRequest({ name: 'Book a vet' }))] : [],
            }),
      ),
    )
    const { queryClient } = renderRequests()
    expect(await screen.findByRole('link', { name: /Book a vet/ })).toBeInTheDocument()

    fail = true
    await act(() => queryClient.refetchQueries({ queryKey: requestKeys.lists() }))
    await waitFor(() =>
      expect(queryClient.getQueryState(requestKeys.list('open'))?.status).toBe('error'),
    )
    expect(screen.getByRole('link', { name: /Book a vet/ })).toBeInTheDocument()
    expect(screen.queryByText('We couldn’t load your requests')).not.toBeInTheDocument()
  })

  it('§2 Requests: offline, the first load says so rather than a skeleton that never ends, and loads once back online', async () => {
    server.use(...listHandlers({ open: [makeRequest({ name: 'Book a vet' })] }))
    onlineManager.setOnline(false)
    renderRequests()
    expect(await screen.findByRole('heading', { name: 'You’re offline' })).toBeInTheDocument()
    expect(screen.getByText('Your requests will load when you’re back online.')).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Loading requests' })).not.toBeInTheDocument()

    act(() => onlineManager.setOnline(true))
    expect(await screen.findByRole('link', { name: /Book a vet/ })).toBeInTheDocument()
  })
})
