/**
 * Issue 8 web speed: a signed-in screen asks for its data as the navigation starts, beside the
 * current-user request, instead of once the guard has the user (one round trip earlier). Here
 * the user answers only after the screen's data was asked for: in a waterfall it never would.
 */
import { act, render, screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { ToastProvider } from '@/design-system'
import { createGate } from '@/test/gate'
import { makeUser, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { routes } from './router'

/** The app shell's unread count (a path under /requests/ that is not a list): none. */
const noUnreadRequests = http.get(apiUrl('/api/v1/requests/unread_count'), () =>
  HttpResponse.json({ count: 0 }),
)

/** A request-list endpoint that answers once `answer()` is called. */
function requestListsOnHold() {
  const held = createGate()
  let asked = 0
  server.use(
    noUnreadRequests,
    http.get(apiUrl('/api/v1/users/current'), () =>
      HttpResponse.json(makeUser({ request_count: 0 })),
    ),
    http.get(apiUrl('/api/v1/requests/:bucket'), async () => {
      asked += 1
      await held.opened
      return HttpResponse.json({ requests: [] })
    }),
  )
  return { answer: held.open, asked: () => asked }
}

function userAnsweringAfter(path: string) {
  const asked: string[] = []
  const data = createGate()
  server.use(
    noUnreadRequests,
    http.get(apiUrl('/api/v1/users/current'), async () => {
      asked.push('user')
      await data.opened
      return HttpResponse.json(makeUser({ request_count: 0 }))
    }),
    http.get(apiUrl(path), () => {
      asked.push(path)
      data.open()
      return HttpResponse.json({ requests: [], recommended_request_categories: [] })
    }),
  )
  return asked
}

function renderApp(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  )
}

describe('issue 8 web speed: signed-in data beside the user', () => {
  it('issue 8: /requests asks for its request lists while the user request is open', async () => {
    signInSession()
    const asked = userAnsweringAfter('/api/v1/requests/:bucket')
    renderApp('/requests')
    expect(await screen.findByRole('tab', { name: 'To do (0)' }, { timeout: 10_000 })).toBeVisible()
    expect(asked).toContain('/api/v1/requests/:bucket')
  })

  it('issue 8: /dashboard asks for its request ideas while the user request is open', async () => {
    signInSession()
    const asked = userAnsweringAfter('/api/v1/recommended_request_categories')
    renderApp('/dashboard')
    expect(
      await screen.findByRole('heading', { name: 'Welcome, Jane' }, { timeout: 10_000 }),
    ).toBeVisible()
    expect(asked).toContain('/api/v1/recommended_request_categories')
  })
})

describe('issue 8 web speed: the first screen renders once, complete', () => {
  // The app's own module state: whether it has shown a screen yet.
  beforeEach(() => {
    vi.resetModules()
  })

  async function renderFreshApp(path: string) {
    const { routes: freshRoutes } = await import('./router')
    // The screens' toasts come from the fresh modules too, so their provider must.
    const { ToastProvider: FreshToastProvider } = await import('@/design-system')
    const router = createMemoryRouter(freshRoutes, { initialEntries: [path] })
    render(
      <FreshToastProvider>
        <RouterProvider router={router} />
      </FreshToastProvider>,
    )
    return router
  }

  it('issue 8: the first screen waits for its data (the document skeleton shows meanwhile)', async () => {
    signInSession()
    const lists = requestListsOnHold()
    await renderFreshApp('/requests')
    await vi.waitFor(() => expect(lists.asked()).toBe(3), { timeout: 10_000 })
    // Long enough for the screen's code to load and render, were it not waiting.
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(screen.queryByRole('main')).toBeNull()
    lists.answer()
    expect(await screen.findByRole('tab', { name: 'To do (0)' }, { timeout: 10_000 })).toBeVisible()
    expect(screen.queryByRole('status', { name: 'Loading requests' })).toBeNull()
  })

  it('issue 8: a screen opened within the app renders at once, with its skeleton', async () => {
    signInSession()
    server.use(
      http.get(apiUrl('/api/v1/users/current'), () =>
        HttpResponse.json(makeUser({ request_count: 0 })),
      ),
    )
    const router = await renderFreshApp('/account')
    expect(await screen.findByRole('main', {}, { timeout: 10_000 })).toBeVisible()
    const lists = requestListsOnHold()
    await act(() => router.navigate('/requests'))
    expect(
      await screen.findByRole('status', { name: 'Loading requests' }, { timeout: 10_000 }),
    ).toBeVisible()
    lists.answer()
    expect(await screen.findByRole('tab', { name: 'To do (0)' }, { timeout: 10_000 })).toBeVisible()
  })
})
