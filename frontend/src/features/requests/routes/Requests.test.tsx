import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { listHandlers, makeRequest, minutesAgo } from '@/test/requestFixtures'
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
})
