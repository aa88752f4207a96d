/**
 * The request drawer and the browser's history: Back closes it and the page stays; closing it
 * any other way leaves no entry behind; leaving for another screen closes it.
 */
import { act, screen, waitFor, within } from '@testing-library/react'
import { Outlet } from 'react-router'
import { describe, expect, it } from 'vitest'
import { fakeSurveyServer, QUESTIONS } from '@/test/fakeSurveyServer'
import { makeUser, renderWithProviders } from '@/test/render'
import { server } from '@/test/server'
import { CLOSE_CONFIRM_MESSAGE } from './components/RequestDrawer'
import { RequestDrawerProvider } from './RequestDrawerProvider'
import { useRequestDrawer } from './requestDrawer'

const ALL_ANSWERED = {
  11: 'Find a plumber',
  12: null,
  13: '5559876543',
  14: 'a@b.example',
  15: 'this_week',
}

function Screen({ title }: { title: string }) {
  const drawer = useRequestDrawer()
  return (
    <>
      <h1>{title}</h1>
      <button
        type="button"
        onClick={() => drawer.open({ surveyId: 603, surveyName: 'Tell us what you need' })}
      >
        Create a request
      </button>
    </>
  )
}

/** Requests, then the Dashboard (so there is a page behind it), with the drawer over both. */
async function onDashboard(answered: Record<number, string | null> = {}) {
  const fake = fakeSurveyServer({ answered, questions: QUESTIONS.slice(0, 5) })
  server.use(...fake.list)
  const view = renderWithProviders(
    <RequestDrawerProvider>
      <Outlet />
    </RequestDrawerProvider>,
    {
      route: '/requests',
      user: makeUser({ request_count: 1 }),
      routes: [
        { path: '/requests', element: <Screen title="Requests" /> },
        { path: '/dashboard', element: <Screen title="Dashboard" /> },
      ],
    },
  )
  await act(() => view.router.navigate('/dashboard'))
  return { ...view, fake }
}

async function openDrawer(user: ReturnType<typeof renderWithProviders>['user']) {
  const opener = screen.getByRole('button', { name: 'Create a request' })
  await user.click(opener)
  const dialog = await screen.findByRole('dialog', { name: 'Tell us what you need' })
  await within(dialog).findByRole('form')
  return { opener, dialog }
}

const drawerShown = () => screen.queryByRole('dialog', { name: 'Tell us what you need' })
const path = (router: { state: { location: { pathname: string } } }) =>
  router.state.location.pathname

describe('the request drawer and Back', () => {
  it('Back with the survey drawer open closes it, stays on the page and gives focus back to the button that opened it', async () => {
    const { user, router } = await onDashboard()
    const { opener } = await openDrawer(user)

    await act(() => router.navigate(-1))

    await waitFor(() => expect(drawerShown()).toBeNull())
    expect(path(router)).toBe('/dashboard')
    expect(screen.getByRole('heading', { name: 'Dashboard' })).toBeInTheDocument()
    await waitFor(() => expect(opener).toHaveFocus())
  })

  it('Back mid-survey closes the drawer at once, without the stop-now question, and discards nothing (the run resumes later)', async () => {
    const { user, router, fake } = await onDashboard({ 11: 'Find a plumber' })
    await openDrawer(user)

    await act(() => router.navigate(-1))

    await waitFor(() => expect(drawerShown()).toBeNull())
    expect(screen.queryByRole('alertdialog', { name: CLOSE_CONFIRM_MESSAGE })).toBeNull()
    expect(path(router)).toBe('/dashboard')
    expect(fake.state.discards).toBe(0)
  })

  it.each([
    [
      'its close button',
      async (u: ReturnType<typeof renderWithProviders>['user']) => {
        await u.click(screen.getByRole('button', { name: 'Close' }))
      },
    ],
    [
      'Escape',
      async (u: ReturnType<typeof renderWithProviders>['user']) => {
        await u.keyboard('{Escape}')
      },
    ],
    [
      'the scrim',
      async (u: ReturnType<typeof renderWithProviders>['user']) => {
        const scrim = document.querySelector<HTMLElement>('[data-drawer-mask]')
        if (!scrim) throw new Error('no scrim')
        await u.click(scrim)
      },
    ],
  ])(
    'closing the survey drawer with %s steps back over its own history entry, leaving none behind: the next Back leaves the page',
    async (_way, close) => {
      const { user, router } = await onDashboard()
      const { opener } = await openDrawer(user)

      await close(user)

      await waitFor(() => expect(drawerShown()).toBeNull())
      expect(path(router)).toBe('/dashboard')
      expect(router.state.historyAction).toBe('POP')
      await waitFor(() => expect(opener).toHaveFocus())
      await act(() => router.navigate(-1))
      expect(path(router)).toBe('/requests')
    },
  )

  it("closing mid-survey still asks 'Wait! You're almost there…'; 'Yes, cancel' steps back over the drawer's history entry, leaving none behind", async () => {
    const { user, router, fake } = await onDashboard({ 11: 'Find a plumber' })
    await openDrawer(user)

    await user.click(screen.getByRole('button', { name: 'Close' }))
    const confirm = await screen.findByRole('alertdialog', { name: CLOSE_CONFIRM_MESSAGE })
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel' }))

    await waitFor(() => expect(drawerShown()).toBeNull())
    expect(path(router)).toBe('/dashboard')
    expect(router.state.historyAction).toBe('POP')
    await waitFor(() => expect(fake.state.discards).toBe(1))
    await act(() => router.navigate(-1))
    expect(path(router)).toBe('/requests')
  })

  it('navigating elsewhere in the app with the survey drawer open closes it: it does not stay over the new page', async () => {
    const { user, router } = await onDashboard()
    await openDrawer(user)

    await act(() => router.navigate('/requests'))

    expect(screen.getByRole('heading', { name: 'Requests' })).toBeInTheDocument()
    await waitFor(() => expect(drawerShown()).toBeNull())
  })
})

describe("the request drawer's confirmation links and the history", () => {
  async function submitted() {
    const view = await onDashboard(ALL_ANSWERED)
    await view.user.click(await screen.findByRole('button', { name: 'Create a request' }))
    await view.user.click(await screen.findByRole('button', { name: 'Submit' }))
    await screen.findByRole('heading', { name: "We've received your request" })
    return view
  }

  it("'View my requests' replaces the drawer's history entry: Back from Requests returns to the Dashboard without the drawer", async () => {
    const { user, router } = await submitted()

    await user.click(screen.getByRole('link', { name: 'View my requests' }))
    await waitFor(() => expect(path(router)).toBe('/requests'))
    expect(router.state.historyAction).toBe('REPLACE')
    await waitFor(() => expect(drawerShown()).toBeNull())

    await act(() => router.navigate(-1))
    expect(path(router)).toBe('/dashboard')
    expect(drawerShown()).toBeNull()
  })

  it("'Go to Dashboard' over the Dashboard only closes the drawer, so the Dashboard is in the history once: Back leaves it", async () => {
    const { user, router } = await submitted()

    await user.click(screen.getByRole('button', { name: 'Go to Dashboard' }))
    await waitFor(() => expect(drawerShown()).toBeNull())
    expect(path(router)).toBe('/dashboard')

    await act(() => router.navigate(-1))
    expect(path(router)).toBe('/requests')
  })
})
