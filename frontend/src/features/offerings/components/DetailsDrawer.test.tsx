/**
 * The offering details drawer and the browser's history: Back closes it and the catalogue
 * stays; closing it any other way leaves no entry behind; 'Get help' hands its entry to the
 * request drawer.
 */
import { act, screen, waitFor, within } from '@testing-library/react'
import { Outlet } from 'react-router'
import { describe, expect, it } from 'vitest'
import { fakeSurveyServer } from '@/test/fakeSurveyServer'
import { makeUser, renderWithProviders } from '@/test/render'
import { RequestDrawerProvider } from '@/test/requestDrawer'
import { server } from '@/test/server'
import { makeDetail, medical, medicalDetail, offeringsApi } from '../test/fixtures'
import { DetailsDrawer } from './DetailsDrawer'
import { useDetailsDrawer } from './useDetailsDrawer'

const CARD = `Open ${medical.heading}`

/** A catalogue screen as the routes build it: a card, and the drawer its state drives. */
function Catalogue() {
  const drawer = useDetailsDrawer()
  return (
    <>
      <h1>Benefits & Offers</h1>
      <button type="button" onClick={() => drawer.open(medical)}>
        {CARD}
      </button>
      <DetailsDrawer
        offeringId={drawer.selected?.id ?? null}
        preview={drawer.selected}
        onClose={drawer.close}
      />
    </>
  )
}

/** The Dashboard, then the catalogue (so there is a page behind it). */
async function onCatalogue(detail = medicalDetail) {
  server.use(...offeringsApi({ details: { [medical.id]: detail } }).handlers)
  const view = renderWithProviders(
    <RequestDrawerProvider>
      <Outlet />
    </RequestDrawerProvider>,
    {
      route: '/dashboard',
      user: makeUser(),
      routes: [
        { path: '/dashboard', element: <h1>Dashboard</h1> },
        { path: '/benefits-and-offers', element: <Catalogue /> },
      ],
    },
  )
  await act(() => view.router.navigate('/benefits-and-offers'))
  return view
}

async function openDetails(user: ReturnType<typeof renderWithProviders>['user']) {
  const card = screen.getByRole('button', { name: CARD })
  await user.click(card)
  const dialog = await screen.findByRole('dialog', { name: medical.heading })
  await within(dialog).findByRole('heading', { name: 'Find an in-network doctor' })
  return { card, dialog }
}

const detailsShown = () => screen.queryByRole('dialog', { name: medical.heading })
const path = (router: { state: { location: { pathname: string } } }) =>
  router.state.location.pathname

describe('the offering details drawer and Back', () => {
  it('Back with the details drawer open closes it, stays on the catalogue and gives focus back to the card that opened it', async () => {
    const { user, router } = await onCatalogue()
    const { card } = await openDetails(user)

    await act(() => router.navigate(-1))

    await waitFor(() => expect(detailsShown()).toBeNull())
    expect(path(router)).toBe('/benefits-and-offers')
    expect(screen.getByRole('heading', { name: 'Benefits & Offers' })).toBeInTheDocument()
    await waitFor(() => expect(card).toHaveFocus())
  })

  it.each([
    [
      'its close button',
      (u: ReturnType<typeof renderWithProviders>['user']) =>
        u.click(screen.getByRole('button', { name: 'Close' })),
    ],
    ['Escape', (u: ReturnType<typeof renderWithProviders>['user']) => u.keyboard('{Escape}')],
  ])(
    'closing the details drawer with %s steps back over its own history entry, leaving none behind: the next Back leaves the catalogue',
    async (_way, close) => {
      const { user, router } = await onCatalogue()
      const { card } = await openDetails(user)

      await close(user)

      await waitFor(() => expect(detailsShown()).toBeNull())
      expect(path(router)).toBe('/benefits-and-offers')
      expect(router.state.historyAction).toBe('POP')
      await waitFor(() => expect(card).toHaveFocus())
      await act(() => router.navigate(-1))
      expect(path(router)).toBe('/dashboard')
    },
  )

  it("'Get help' hands the details drawer's history entry to the request drawer: one Back closes the request drawer and stays on the catalogue", async () => {
    server.use(...fakeSurveyServer({ surveyId: 731, surveyName: 'Enroll in my 401(k)' }).list)
    const detail = makeDetail({
      ...medicalDetail,
      request_survey_cta: 'Help me enroll',
      request_survey_id: 731,
      request_survey_name: 'Enroll in my 401(k)',
    })
    const { user, router } = await onCatalogue(detail)
    const { dialog } = await openDetails(user)

    await user.click(within(dialog).getByRole('button', { name: 'Help me enroll' }))
    const request = await screen.findByRole('dialog', { name: 'Enroll in my 401(k)' })
    await within(request).findByRole('form')
    await waitFor(() => expect(detailsShown()).toBeNull())

    await act(() => router.navigate(-1))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(path(router)).toBe('/benefits-and-offers')
  })
})
