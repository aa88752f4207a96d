import { QueryClientProvider } from '@tanstack/react-query'
import { act, render, screen, waitFor, within } from '@testing-library/react'
import { createMemoryRouter, Outlet, RouterProvider } from 'react-router'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/design-system'
import Request from '@/features/requests/routes/Request'
import { config } from '@/lib/config'
import { FakeEventSource, installFakeEventSource, STREAM_START } from '@/test/fakeEventSource'
import { createTestQueryClient, makeUser, signInSession } from '@/test/render'
import { detailHandler, makeMessage, makeRequest, unreadCountHandler } from '@/test/requestFixtures'
import { server } from '@/test/server'
import { AppLayout } from '../layouts/AppLayout'
import { RootLayout } from '../layouts/RootLayout'

/** The signed-in shell under the root layout (which sets the page title), as the router has it. */
function renderApp(path: string) {
  signInSession()
  const user = makeUser()
  const router = createMemoryRouter(
    [
      {
        element: <RootLayout />,
        children: [
          {
            element: <Outlet context={{ user }} />,
            children: [
              {
                element: <AppLayout />,
                children: [
                  {
                    path: '/requests',
                    element: <p>Your requests</p>,
                    handle: { title: 'Requests' },
                  },
                  {
                    path: '/requests/:requestId',
                    element: <Request />,
                    handle: { title: 'Request' },
                  },
                ],
              },
            ],
          },
        ],
      },
    ],
    { initialEntries: [path] },
  )
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  return router
}

/** The Requests item of the top bar and of the bottom bar. */
function requestsLinks(name: string | RegExp) {
  return screen
    .getAllByRole('navigation', { name: 'Main' })
    .map((nav) => within(nav).getByRole('link', { name }))
}

const title = (route: string) => `${config.productName} | ${route}`

describe('unread replies in the app shell', () => {
  // The root layout restores the scroll position, which jsdom cannot do.
  beforeEach(() => {
    vi.spyOn(window, 'scrollTo').mockImplementation(() => {})
  })
  afterEach(() => {
    vi.unstubAllGlobals()
    vi.restoreAllMocks()
  })

  it('unread replies: Requests shows the count in the top and bottom bars, named "Requests, 2 unread", and the title leads with it', async () => {
    server.use(unreadCountHandler(() => 2))
    renderApp('/requests')
    const links = await waitFor(() => requestsLinks('Requests, 2 unread'))
    expect(links).toHaveLength(2)
    for (const link of links) {
      expect(link).toHaveAttribute('href', '/requests')
      // The number is on screen, in a pill beside the label (not a coloured dot alone).
      expect(link.querySelector('[data-nav-count]')).toHaveTextContent('2')
    }
    await waitFor(() => expect(document.title).toBe(`(2) ${title('Requests')}`))
  })

  it('unread replies: with nothing unread the item is plain "Requests" and the title has no count', async () => {
    const calls = { count: 0 }
    server.use(unreadCountHandler(() => 0, calls))
    renderApp('/requests')
    await waitFor(() => expect(calls.count).toBe(1))
    for (const link of requestsLinks('Requests')) {
      expect(link).toHaveAccessibleName('Requests')
      expect(link.querySelector('[data-nav-count]')).toBeNull()
    }
    await waitFor(() => expect(document.title).toBe(title('Requests')))
  })

  it('unread replies: a live reply raises the count in the navigation and the title, and the thread opened in another tab lowers it, without a reload', async () => {
    let unread = 0
    server.use(
      installFakeEventSource(),
      unreadCountHandler(() => unread),
    )
    renderApp('/requests')
    await waitFor(() => expect(document.title).toBe(title('Requests')))
    await waitFor(() => expect(FakeEventSource.instances).toHaveLength(1), STREAM_START)
    const stream = FakeEventSource.instances[0]
    act(() => stream.onopen?.())

    unread = 1
    stream.send({ type: 'message.created', request_id: 7, status: 'in_progress' })
    await waitFor(() => expect(requestsLinks('Requests, 1 unread')).toHaveLength(2))
    await waitFor(() => expect(document.title).toBe(`(1) ${title('Requests')}`))

    unread = 0
    stream.send({ type: 'request.seen', request_id: 7, status: 'in_progress' })
    await waitFor(() => expect(requestsLinks('Requests')[0]).toHaveAccessibleName('Requests'))
    await waitFor(() => expect(document.title).toBe(title('Requests')))
  })

  it('unread replies: opening the thread clears the count in this tab, even without the live stream', async () => {
    let unread = 1
    const request = makeRequest({
      id: 7,
      name: 'Find a plumber',
      status: 'in_progress',
      messages: [makeMessage({ body_html: 'Tuesday at 9?' })],
    })
    // Opening the thread marks it seen on the server.
    server.use(
      unreadCountHandler(() => unread),
      detailHandler(() => {
        unread = 0
        return request
      }),
    )
    const router = renderApp('/requests')
    await waitFor(() => expect(requestsLinks('Requests, 1 unread')).toHaveLength(2))
    await act(() => router.navigate('/requests/7'))
    expect(await screen.findByText('Tuesday at 9?')).toBeInTheDocument()
    await waitFor(() => expect(requestsLinks('Requests')[0]).toHaveAccessibleName('Requests'))
    await waitFor(() => expect(document.title).toBe(title('Request')))
  })
})
