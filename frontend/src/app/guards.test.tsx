import { QueryClientProvider } from '@tanstack/react-query'
import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import { createMemoryRouter, type RouteObject, RouterProvider, useLocation } from 'react-router'
import { beforeEach, describe, expect, it } from 'vitest'
import { ToastProvider } from '@/design-system'
import SignIn from '@/features/auth/routes/SignIn'
import { returnTarget, session } from '@/lib/session'
import { currentUserOk, signInOk } from '@/test/handlers'
import { createTestQueryClient, makeUser, signInSession } from '@/test/render'
import { server } from '@/test/server'
import { RedirectIfAuthenticated, RequireAuth, RequireConcierge, RootRedirect } from './guards'
import { SignedInLayout } from './layouts/SignedInLayout'
import { routes } from './router'

const employee = makeUser()
const concierge = makeUser({
  email: 'concierge@example.com',
  full_name: 'Alex Rivera',
  is_concierge: true,
  companies: [],
})

function Where() {
  const location = useLocation()
  return <p data-testid="where">{location.pathname}</p>
}

/** The guards in a small route tree like the app's, with probes where the user may land. */
function renderTree(initial: string) {
  session.refresh()
  const tree: RouteObject[] = [
    { path: '/', element: <RootRedirect /> },
    {
      element: <RedirectIfAuthenticated allowPendingMfa />,
      children: [{ path: '/sign-in', element: <SignIn /> }],
    },
    {
      element: <RequireAuth />,
      children: [
        {
          element: <SignedInLayout />,
          children: [
            {
              element: <RequireConcierge />,
              children: [{ path: '/concierge', element: <p>The concierge desk</p> }],
            },
            { path: '/dashboard', element: <Where /> },
            { path: '/requests/:id', element: <Where /> },
          ],
        },
      ],
    },
  ]
  const router = createMemoryRouter(tree, { initialEntries: [initial] })
  const ui: ReactElement = (
    <QueryClientProvider client={createTestQueryClient()}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  )
  return { ...render(ui), router, user: userEvent.setup() }
}

async function signInWithForm(user: ReturnType<typeof userEvent.setup>) {
  await user.type(await screen.findByLabelText('Email address'), 'someone@example.com')
  await user.type(screen.getByLabelText('Password'), 'secret123')
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
}

beforeEach(() => session.clear())

describe('issue 5 security: the concierge desk is for concierges only', () => {
  it('issue 5 security: RequireConcierge sends an employee who opens /concierge to their Dashboard', async () => {
    signInSession()
    server.use(currentUserOk(employee))
    const { router } = renderTree('/concierge')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(screen.queryByText('The concierge desk')).not.toBeInTheDocument()
  })

  it('issue 5 security: RequireConcierge lets a concierge in', async () => {
    signInSession()
    server.use(currentUserOk(concierge))
    const { router } = renderTree('/concierge')
    expect(await screen.findByText('The concierge desk')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/concierge')
  })

  it('issue 5 security: the desk routes are lazy route modules behind RequireAuth and RequireConcierge', () => {
    const trail = (
      list: RouteObject[],
      path: string,
      parents: RouteObject[] = [],
    ): RouteObject[] | null => {
      for (const route of list) {
        if (route.path === path) return [...parents, route]
        const found = route.children && trail(route.children, path, [...parents, route])
        if (found) return found
      }
      return null
    }
    for (const path of ['/concierge', '/concierge/requests/:requestId']) {
      const found = trail(routes, path)
      expect(found, path).not.toBeNull()
      const chain = found as RouteObject[]
      const guards = chain.map((r) => (r.element as ReactElement | undefined)?.type)
      expect(guards).toContain(RequireAuth)
      expect(guards).toContain(RequireConcierge)
      // The screen and the desk layout are loaded on demand, never part of the employee's bundle.
      const [layout, screenRoute] = chain.slice(-2)
      expect(screenRoute.lazy).toBeTypeOf('function')
      expect(screenRoute.element).toBeUndefined()
      expect(layout.lazy).toBeTypeOf('function')
      expect(layout.element).toBeUndefined()
    }
  })
})

describe('issue 5: where a concierge lands', () => {
  it('issue 5: a concierge lands on /concierge after sign-in without a return target', async () => {
    server.use(signInOk(), currentUserOk(concierge))
    const { router, user } = renderTree('/sign-in')
    await signInWithForm(user)
    expect(await screen.findByText('The concierge desk')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/concierge')
  })

  it('issue 5: an employee still lands on the Dashboard after sign-in', async () => {
    server.use(signInOk(), currentUserOk(employee))
    const { router, user } = renderTree('/sign-in')
    await signInWithForm(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })

  it("issue 27: a signed-out link's fragment (the data export's token) comes back after the sign-in", async () => {
    server.use(signInOk(), currentUserOk(employee))
    const { router, user } = renderTree('/requests/42#tok_en-1')
    await signInWithForm(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/42'))
    expect(router.state.location.hash).toBe('#tok_en-1')
  })

  it('issue 5: a return target wins over the concierge desk', async () => {
    server.use(signInOk(), currentUserOk(concierge))
    returnTarget.save('/requests/42')
    const { router, user } = renderTree('/sign-in')
    await signInWithForm(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/42'))
  })

  it('issue 5: a signed-in concierge opening the root path or the sign-in page goes to /concierge', async () => {
    signInSession()
    server.use(currentUserOk(concierge))
    const root = renderTree('/')
    await waitFor(() => expect(root.router.state.location.pathname).toBe('/concierge'))
    root.unmount()
    const signIn = renderTree('/sign-in')
    await waitFor(() => expect(signIn.router.state.location.pathname).toBe('/concierge'))
  })
})
