import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { makeUser, renderWithProviders } from '@/test/render'
import { RequestDrawerProvider } from '@/test/requestDrawer'
import { apiUrl, server } from '@/test/server'
import { allOfferings, makeDetail, medical, medicalDetail, offeringsApi } from '../test/fixtures'
import OfferingsFull from './OfferingsFull'

vi.mock('canvas-confetti', () => ({ default: vi.fn() }))

const OFFERING_NOT_FOUND = "We couldn't find that benefit or offer."
const medicalCard = `${medical.provider_name}, ${medical.heading}, ${medical.subheading}, View details (benefit)`

function renderCatalogue() {
  const detail = makeDetail({
    ...medicalDetail,
    request_survey_cta: 'Help me enroll',
    request_survey_id: 731,
    request_survey_name: 'Enroll in my plan',
  })
  server.use(...offeringsApi({ details: { [medical.id]: detail } }).handlers)
  return renderWithProviders(
    <RequestDrawerProvider>
      <OfferingsFull />
    </RequestDrawerProvider>,
    { route: '/benefits-and-offers/all', user: makeUser() },
  )
}

/** An admin turns the offer off: the catalogue no longer has it and its 'Get help' is refused. */
function turnOffMedical() {
  const others = allOfferings.filter((o) => o.id !== medical.id)
  server.use(
    ...offeringsApi({ offerings: others, details: {} }).handlers,
    http.post(apiUrl('/api/v1/request_surveys/731/user_request_surveys'), () =>
      HttpResponse.json({ success: false, error: OFFERING_NOT_FOUND }, { status: 404 }),
    ),
  )
}

describe("'Get help' on an offer that is gone", () => {
  it("shows the server's message and refreshes the catalogue, so the offer disappears", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const { user } = renderCatalogue()
    await user.click(await screen.findByRole('button', { name: medicalCard }, { timeout: 5000 }))
    const details = await screen.findByRole('dialog')
    const getHelp = await within(details).findByRole('region', { name: 'Get help' })
    turnOffMedical()

    await user.click(within(getHelp).getByRole('button', { name: 'Help me enroll' }))
    const requestDrawer = await screen.findByRole('dialog', { name: 'Enroll in my plan' })
    expect(await within(requestDrawer).findByRole('alert')).toHaveTextContent(OFFERING_NOT_FOUND)

    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(screen.queryByRole('button', { name: medicalCard })).toBeNull(), {
      timeout: 3000,
    })
  })
})
