import { render, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { trackPageView } from '@/lib/analytics'
import { config } from '@/lib/config'
import { useScreenTitle } from '@/lib/titleCount'
import { RootLayout } from './layouts/RootLayout'

vi.mock('@/lib/analytics', () => ({ trackPageView: vi.fn() }))

function NamedScreen() {
  useScreenTitle('#2 Get a handyman · Nora')
  return <p>A request</p>
}

function renderScreens() {
  const router = createMemoryRouter(
    [
      {
        element: <RootLayout />,
        children: [
          { path: '/concierge/requests/2', element: <NamedScreen />, handle: { title: 'Request' } },
          { path: '/concierge', element: <p>The queue</p>, handle: { title: 'Requests' } },
        ],
      },
    ],
    { initialEntries: ['/concierge/requests/2'] },
  )
  render(<RouterProvider router={router} />)
  return router
}

describe('issue 29 desk: a request names the browser tab', () => {
  afterEach(() => vi.clearAllMocks())

  it('issue 29 desk: the tab reads the request’s number, name and employee, analytics only the route', async () => {
    const router = renderScreens()
    await waitFor(() =>
      expect(document.title).toBe(`${config.productName} | #2 Get a handyman · Nora`),
    )
    const titles = vi.mocked(trackPageView).mock.calls.map(([, title]) => title)
    expect(titles).toEqual([`${config.productName} | Request`])

    await router.navigate('/concierge')
    await waitFor(() => expect(document.title).toBe(`${config.productName} | Requests`))
  })
})
