/**
 * Issue 8 web speed: a signed-in screen asks for its data as the navigation starts, beside the
 * current-user request, instead of once the guard has the user (one round trip earlier). Here
 * the user answers only after the screen's data was asked for: in a waterfall it never would.
 */
import { render, screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '@/design-system'
import { makeUser, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { routes } from './router'

function userAnsweringAfter(path: string) {
  const asked: string[] = []
  let dataAsked = () => {}
  const data = new Promise<void>((resolve) => {
    dataAsked = resolve
  })
  server.use(
    http.get(apiUrl('/api/v1/users/current'), async () => {
      asked.push('user')
      await data
      return HttpResponse.json(makeUser({ request_count: 0 }))
    }),
    http.get(apiUrl(path), () => {
      asked.push(path)
      dataAsked()
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
