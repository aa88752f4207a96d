/**
 * renderWithProviders: a screen inside a memory router, a fresh QueryClient and the toast
 * provider, as the app mounts it. Any path the screen navigates to renders a probe, so a test
 * can assert where the user went via `router.state.location`.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { render } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import type { ReactElement } from 'react'
import {
  createMemoryRouter,
  Outlet,
  parsePath,
  type RouteObject,
  RouterProvider,
  useLocation,
} from 'react-router'
import type { CurrentUser } from '@/api/client'
import { ToastProvider } from '@/design-system'
import { session } from '@/lib/session'

export interface RenderOptions {
  /** The initial address. Default '/'. */
  route?: string
  /** The route pattern the screen is mounted at. Default: the route's pathname. */
  path?: string
  /** Supplies `useCurrentUser()` through the outlet context, as RequireAuth does. */
  user?: CurrentUser
  /** Child routes: the screen becomes a path-less layout around them (unless `path` is set). */
  routes?: RouteObject[]
  queryClient?: QueryClient
  /** The initial entry's router state (what `navigate(to, { state })` hands the screen). */
  state?: unknown
}

function LocationProbe() {
  const location = useLocation()
  return <div data-testid="location">{location.pathname + location.search}</div>
}

export function createTestQueryClient() {
  return new QueryClient({
    defaultOptions: { queries: { retry: false }, mutations: { retry: false } },
  })
}

export function renderWithProviders(ui: ReactElement, options: RenderOptions = {}) {
  const route = options.route ?? '/'
  const path = options.path ?? (options.routes ? undefined : route.split('?')[0])
  const queryClient = options.queryClient ?? createTestQueryClient()
  session.refresh()
  const screenRoute: RouteObject = { path, element: ui, children: options.routes }
  const router = createMemoryRouter(
    [
      {
        element: options.user ? <Outlet context={{ user: options.user }} /> : <Outlet />,
        children: [screenRoute, { path: '*', element: <LocationProbe /> }],
      },
    ],
    {
      initialEntries: [{ ...parsePath(route), state: options.state }],
    },
  )
  const user = userEvent.setup()
  const result = render(
    <QueryClientProvider client={queryClient}>
      <ToastProvider>
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>,
  )
  return { ...result, router, queryClient, user }
}

/** A signed-in user for screens that read `useCurrentUser()`. */
export function makeUser(overrides: Partial<CurrentUser> = {}): CurrentUser {
  return {
    external_id: '6f1c1d7e-0000-4000-8000-000000000001',
    email: 'jane.doe@example.com',
    first_name: 'Jane',
    last_name: 'Doe',
    full_name: 'Jane Doe',
    initials: 'JD',
    is_concierge: false,
    is_internal: false,
    email_verification_pending: false,
    mfa_enabled: false,
    mfa_enrollment_available: false,
    mfa_required: false,
    onboarding_required: false,
    request_count: 0,
    companies: [{ id: 1, name: 'Acme Corp', image_url: null }],
    ...overrides,
  }
}

/** Starts a signed-in session that expires in an hour. */
export function signInSession() {
  session.start('test-token', new Date(Date.now() + 3_600_000).toISOString())
}
