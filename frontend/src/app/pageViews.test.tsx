import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/design-system'
import { trackPageView } from '@/lib/analytics'
import { session } from '@/lib/session'
import { createTestQueryClient } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { routes } from './router'

vi.mock('@/lib/analytics', () => ({
  resetAnalyticsIdentity: vi.fn(),
  setAnalyticsIdentity: vi.fn(),
  trackPageView: vi.fn(),
}))

function renderApp(path: string) {
  session.clear()
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  render(
    <QueryClientProvider client={createTestQueryClient()}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  return router
}

const viewedPaths = () => vi.mocked(trackPageView).mock.calls.map(([path]) => path)

describe('§2 route table / §8 analytics: a legacy redirect is one page view, of its destination', () => {
  afterEach(() => vi.clearAllMocks())

  it.each([
    ['/legacy-token/unlock', '/unlock/legacy-token'],
    ['/reset-password/legacy-token/unlock42', '/unlock/legacy-token'],
  ])('§2 legacy unlock %s: only %s is recorded, once', async (legacy, destination) => {
    server.use(http.get(apiUrl('/api/v1/users/unlock'), () => HttpResponse.json({ success: true })))
    const router = renderApp(legacy)
    expect(await screen.findByText('Your account has been unlocked.')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe(destination)
    await waitFor(() => expect(viewedPaths()).toEqual([destination]))
  })

  it('§2 /users/sign_in: only /sign-in is recorded, once', async () => {
    const router = renderApp('/users/sign_in')
    expect(await screen.findByLabelText('Email address')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/sign-in')
    await waitFor(() => expect(viewedPaths()).toEqual(['/sign-in']))
  })

  it("§2 '/': a signed-out visitor's page view is SignIn's only", async () => {
    const router = renderApp('/')
    expect(await screen.findByLabelText('Email address')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/sign-in')
    await waitFor(() => expect(viewedPaths()).toEqual(['/sign-in']))
  })
})
