/**
 * Following a link of the navigation on a slow network: while the next screen's code is on its
 * way (every screen is a lazy route), that screen's skeleton shows at once in place of the one
 * left behind, so the tap visibly did something.
 */
import { act, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { createMemoryRouter, type RouteObject, RouterProvider } from 'react-router'
import { describe, expect, it } from 'vitest'
import { ToastProvider } from '@/design-system'
import { fakeSurveyServer } from '@/test/fakeSurveyServer'
import { createGate } from '@/test/gate'
import { makeUser, signInSession } from '@/test/render'
import { listItem, makeRequest } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import { routes } from './router'

/** A signed-in employee with nothing yet: every screen's first data, empty. */
function signedInWithNoRequests() {
  signInSession()
  server.use(
    http.get(apiUrl('/api/v1/requests/unread_count'), () => HttpResponse.json({ count: 0 })),
    http.get(apiUrl('/api/v1/users/current'), () =>
      HttpResponse.json(makeUser({ request_count: 0 })),
    ),
    http.get(apiUrl('/api/v1/requests/:bucket'), () => HttpResponse.json({ requests: [] })),
    http.get(apiUrl('/api/v1/recommended_request_categories'), () =>
      HttpResponse.json({ success: true, recommended_request_categories: [] }),
    ),
    http.get(apiUrl('/api/v1/survey_categories'), () =>
      HttpResponse.json({ survey_categories: [] }),
    ),
    // Benefits & Offers asks for its featured offerings while its code is on its way.
    http.get(apiUrl('/api/v1/offerings'), () => HttpResponse.json({ offerings: [] })),
  )
}

/** The app's routes, with the code of the screen at `path` held back until `arrived`. */
function holdingCode(tree: RouteObject[], path: string, arrived: Promise<void>): RouteObject[] {
  return tree.map((route) => {
    const held = { ...route } as RouteObject
    if (route.children) held.children = holdingCode(route.children, path, arrived)
    const lazy = route.lazy
    if (route.path === path && typeof lazy === 'function') {
      held.lazy = async () => {
        await arrived
        return lazy()
      }
    }
    return held
  })
}

/** The app's routes, where the data of the screen at `path` reloads only once `reloaded`. */
function holdingReloads(tree: RouteObject[], path: string, reloaded: Promise<void>): RouteObject[] {
  return tree.map((route) => {
    const held = { ...route } as RouteObject
    if (route.children) held.children = holdingReloads(route.children, path, reloaded)
    const loader = route.loader
    if (route.path === path && typeof loader === 'function') {
      let loads = 0
      held.loader = async (args, context) => {
        loads += 1
        if (loads > 1) await reloaded
        return loader(args, context)
      }
    }
    return held
  })
}

function renderApp(
  path: string,
  holding?: { path: string; arrived: Promise<void> },
  tree = holding ? holdingCode(routes, holding.path, holding.arrived) : routes,
) {
  const router = createMemoryRouter(tree, { initialEntries: [path] })
  render(
    <ToastProvider>
      <RouterProvider router={router} />
    </ToastProvider>,
  )
  return { router, user: userEvent.setup() }
}

const topNav = () => screen.getAllByRole('navigation', { name: 'Main' })[0]
const bottomBar = () => screen.getAllByRole('navigation', { name: 'Main' })[1]

describe('following the navigation while the next screen’s code is on its way', () => {
  it('Requests in the navigation shows the Requests skeleton at once, then the screen once its code arrives', async () => {
    signedInWithNoRequests()
    const code = createGate()
    const { router, user } = renderApp('/dashboard', { path: '/requests', arrived: code.opened })
    const welcome = await screen.findByRole(
      'heading',
      { name: 'Welcome, Jane' },
      { timeout: 10_000 },
    )

    await user.click(within(topNav()).getByRole('link', { name: 'Requests' }))

    expect(await screen.findByRole('status', { name: 'Loading requests' })).toBeVisible()
    expect(screen.getByRole('heading', { level: 1, name: 'Requests' })).toBeVisible()
    expect(welcome).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/dashboard')
    // The link tapped looks current while its screen loads; the address is still the old one.
    const requests = within(topNav()).getByRole('link', { name: 'Requests' })
    const dashboard = within(topNav()).getByRole('link', { name: 'Dashboard' })
    expect(requests).toHaveClass('bg-primary-50')
    expect(dashboard).not.toHaveClass('bg-primary-50')
    expect(dashboard).toHaveAttribute('aria-current', 'page')

    code.open()
    expect(await screen.findByRole('tab', { name: 'To do (0)' }, { timeout: 10_000 })).toBeVisible()
    expect(screen.queryByRole('status', { name: 'Loading requests' })).toBeNull()
  })

  it.each([
    ['Dashboard', '/dashboard', '/requests', 'Loading Dashboard'],
    ['Benefits & Offers', '/benefits-and-offers', '/dashboard', 'Loading Benefits & Offers'],
    ['Account', '/account', '/dashboard', 'Loading Account'],
  ])(
    '%s in the bottom bar shows a skeleton at once, read out as loading, in place of the screen left',
    async (link, to, from, loading) => {
      signedInWithNoRequests()
      const { router, user } = renderApp(from, { path: to, arrived: createGate().opened })
      const left = await screen.findByRole('heading', { level: 1 }, { timeout: 10_000 })

      await user.click(within(bottomBar()).getByRole('link', { name: link }))

      expect(await screen.findByRole('status', { name: loading })).toBeVisible()
      expect(left).not.toBeInTheDocument()
      expect(router.state.location.pathname).toBe(from)
      const current = within(bottomBar())
        .getAllByRole('link')
        .filter((shown) => shown.classList.contains('nav-current'))
      expect(current).toEqual([within(bottomBar()).getByRole('link', { name: link })])
    },
  )
})

describe('a drawer over the screen is no navigation to another screen', () => {
  it('opening the survey drawer from the bottom bar and pressing Back keep the screen under it (no skeleton in its place) and give focus back to the button', async () => {
    signedInWithNoRequests()
    server.use(...fakeSurveyServer({ surveyId: 603 }).list)
    const { router, user } = renderApp('/requests', {
      path: '/account',
      arrived: Promise.resolve(),
    })
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: 'Requests' },
      { timeout: 10_000 },
    )
    const create = within(bottomBar()).getByRole('button', { name: 'Create a request' })

    await user.click(create)
    const drawer = await screen.findByRole(
      'dialog',
      { name: 'Tell us what you need' },
      { timeout: 10_000 },
    )
    await within(drawer).findByRole('form')
    await act(() => router.navigate(-1))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(router.state.location.pathname).toBe('/requests')
    expect(heading).toBeInTheDocument()
    await waitFor(() => expect(create).toHaveFocus())
  })

  it('another address of the same screen (a Requests tab) keeps the screen while its data reloads: no skeleton in its place', async () => {
    signedInWithNoRequests()
    // A completed request, so that the Completed tab is there to go to.
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), ({ params }) =>
        HttpResponse.json({
          requests:
            params.bucket === 'completed'
              ? [listItem(makeRequest({ name: 'Renew my passport', status: 'closed' }))]
              : [],
        }),
      ),
    )
    const reloaded = createGate()
    const { router } = renderApp(
      '/requests',
      undefined,
      holdingReloads(routes, '/requests', reloaded.opened),
    )
    const heading = await screen.findByRole(
      'heading',
      { level: 1, name: 'Requests' },
      { timeout: 10_000 },
    )
    await screen.findByRole('tab', { name: 'Completed (1)' })

    act(() => void router.navigate('/requests?tab=Completed', { replace: true }))

    await waitFor(() => expect(router.state.navigation.state).toBe('loading'))
    expect(heading).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Loading requests' })).toBeNull()
    reloaded.open()
    await waitFor(() => expect(router.state.location.search).toBe('?tab=Completed'))
  })
})
