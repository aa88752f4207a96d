import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { makeUser, renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import {
  allOfferings,
  dental,
  hotels,
  lifeInsurance,
  medical,
  medicalDetail,
  offeringsApi,
  retirement,
} from '../test/fixtures'
import OfferingsFull from './OfferingsFull'

vi.mock('@/features/request-drawer', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/request-drawer')>()),
  useRequestDrawer: () => ({ open: vi.fn(), close: vi.fn(), target: null }),
}))

function renderFull(search = '', options: Parameters<typeof offeringsApi>[0] = {}) {
  const api = offeringsApi(options)
  server.use(...api.handlers)
  const view = renderWithProviders(<OfferingsFull />, {
    route: `/benefits-and-offers/all${search}`,
    path: '/benefits-and-offers/all',
    user: makeUser(),
  })
  return { ...view, api }
}

// The screen's first render loads its lazy parts: allow a busy machine more than the default second.
const cardList = () => screen.findByRole('list', { name: 'Benefits and offers' }, { timeout: 5000 })

/** The headings of the cards shown, in order. */
async function shownHeadings() {
  const list = await cardList()
  return within(list)
    .getAllByRole('button')
    .map((card) => card.getAttribute('aria-label'))
}

const label = (o: typeof medical) =>
  `${o.provider_name}, ${o.heading}, ${o.subheading}, View details (${o.type === 'benefit' ? 'benefit' : 'offer'})`

describe('§2 OfferingsFull', () => {
  it('Issue 15 skeleton keys: the loading filter bar renders without a duplicate React key', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    renderFull()
    await cardList()
    const keyWarnings = errors.mock.calls.filter((call) =>
      String(call[0]).includes('Encountered two children with the same key'),
    )
    errors.mockRestore()
    expect(keyWarnings).toEqual([])
  })

  it("§2 OfferingsFull: a back link to the landing page and the 'All benefits & offers' heading", async () => {
    renderFull()
    expect(
      screen.getByRole('heading', { level: 1, name: 'All benefits & offers' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Benefits & Offers' })).toHaveAttribute(
      'href',
      '/benefits-and-offers',
    )
    await cardList()
  })

  it('§7 Offerings: the full list is one call for types=benefit,product, filtered client-side', async () => {
    const { api } = renderFull()
    expect(await shownHeadings()).toEqual(allOfferings.map(label))
    expect(api.log.listQueries).toEqual(['?types=benefit,product'])
  })

  it('§2 Offering card: benefit cards show a benefit icon on the all page; offers do not', async () => {
    renderFull()
    await cardList()
    const benefit = screen.getByRole('button', { name: label(medical) })
    const offer = screen.getByRole('button', { name: label(hotels) })
    expect(benefit.querySelector('[data-benefit-icon]')).not.toBeNull()
    expect(offer.querySelector('[data-benefit-icon]')).toBeNull()
    expect(benefit.querySelector('img')).toHaveAttribute('alt', '')
  })

  it('§2 OfferingsFull: the category filter bar has All plus each category; All is selected by default', async () => {
    renderFull()
    const bar = await screen.findByRole('radiogroup', { name: 'Filter by category' })
    expect(
      within(bar)
        .getAllByRole('radio')
        .map((r) => r.closest('label')?.textContent),
    ).toEqual(['All', 'Health', 'Financial', 'Family', 'Travel', 'Pets'])
    expect(within(bar).getByRole('radio', { name: 'All' })).toBeChecked()
  })

  it('§4 Offerings: choosing a category filters the list and replaces the URL query', async () => {
    const { user, router } = renderFull()
    await cardList()
    await user.click(screen.getByRole('radio', { name: 'Financial' }))
    await waitFor(() => expect(router.state.location.search).toBe('?type=all&filter=Financial'))
    expect(router.state.historyAction).toBe('REPLACE')
    await waitFor(async () =>
      expect(await shownHeadings()).toEqual([label(retirement), label(lifeInsurance)]),
    )
    expect(screen.getByRole('radio', { name: 'Financial' })).toBeChecked()
  })

  it('§2 OfferingsFull: the category filter bar works with the keyboard (arrow keys)', async () => {
    const { user, router } = renderFull()
    await cardList()
    await user.tab() // back link
    await user.tab() // the filter group (its selected radio)
    expect(screen.getByRole('radio', { name: 'All' })).toHaveFocus()
    await user.keyboard('{ArrowRight}')
    await waitFor(() => expect(router.state.location.search).toBe('?type=all&filter=Health'))
    expect(screen.getByRole('radio', { name: 'Health' })).toHaveFocus()
  })

  it("§4 Offerings: the 'Show only my benefits' toggle shows only benefits and replaces the URL query", async () => {
    const { user, router } = renderFull('?filter=Financial')
    await cardList()
    const toggle = screen.getByRole('switch', { name: 'Show only my benefits' })
    expect(toggle).not.toBeChecked()
    await user.click(toggle)
    await waitFor(() => expect(router.state.location.search).toBe('?filter=Financial&type=benefit'))
    expect(router.state.historyAction).toBe('REPLACE')
    await waitFor(async () => expect(await shownHeadings()).toEqual([label(retirement)]))

    await user.click(toggle)
    await waitFor(() => expect(router.state.location.search).toBe('?filter=Financial&type=all'))
    await waitFor(async () =>
      expect(await shownHeadings()).toEqual([label(retirement), label(lifeInsurance)]),
    )
  })

  it('§2 OfferingsFull: ?type=benefit (the landing page link) starts with only benefits', async () => {
    renderFull('?type=benefit')
    expect(await shownHeadings()).toEqual([label(medical), label(dental), label(retirement)])
    expect(screen.getByRole('switch', { name: 'Show only my benefits' })).toBeChecked()
  })

  it('§2 OfferingsFull: unknown type and filter values fall back to all and All without an error', async () => {
    const { router } = renderFull('?type=everything&filter=Gardening')
    expect(await shownHeadings()).toEqual(allOfferings.map(label))
    expect(screen.getByRole('radio', { name: 'All' })).toBeChecked()
    expect(screen.getByRole('switch', { name: 'Show only my benefits' })).not.toBeChecked()
    expect(router.state.location.search).toBe('?type=everything&filter=Gardening')
  })

  it('§2 OfferingsFull: the toggle is hidden when there are no benefits', async () => {
    renderFull('', { offerings: [hotels, lifeInsurance] })
    await cardList()
    expect(screen.queryByRole('switch')).toBeNull()
  })

  it('§2 OfferingsFull: the toggle is hidden when every offering is a benefit', async () => {
    renderFull('', { offerings: [medical, dental] })
    await cardList()
    expect(screen.queryByRole('switch')).toBeNull()
  })

  it("§8 Empty offerings: a filter with nothing in it says 'Sorry, no results have been found'", async () => {
    const { user, router } = renderFull('?filter=Pets')
    expect(
      await screen.findByRole('heading', { name: 'Sorry, no results have been found' }),
    ).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Benefits and offers' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Show all benefits & offers' }))
    await waitFor(() => expect(router.state.location.search).toBe('?filter=All&type=all'))
    expect(await shownHeadings()).toHaveLength(allOfferings.length)
  })

  it("§ Benefits & Offers, OfferingsFull: 'Show all benefits & offers' leaves keyboard focus on the results it brings back, not on the page", async () => {
    const { user } = renderFull('?type=benefit&filter=Travel')
    const reset = await screen.findByRole('button', { name: 'Show all benefits & offers' })
    await user.click(reset)
    await cardList()
    expect(screen.getByRole('region', { name: 'Results' })).toHaveFocus()
  })

  it('§ Benefits & Offers, OfferingsFull: categories that fail to load say so with Retry, which brings the category filter bar', async () => {
    let failing = true
    const { user } = renderFull()
    server.use(
      http.get(apiUrl('/api/v1/offering_categories'), () =>
        failing
          ? HttpResponse.json({ success: false, error: 'Server error' }, { status: 500 })
          : HttpResponse.json({
              offering_categories: [{ external_id: 'travel', name: 'Travel', image_url: null }],
            }),
      ),
    )
    const alert = await screen.findByRole('alert', {}, { timeout: 5000 })
    expect(alert).toHaveTextContent("We couldn't load the categories to filter by.")
    expect(await shownHeadings()).toHaveLength(allOfferings.length)
    failing = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    const filters = await screen.findByRole('radiogroup', { name: 'Filter by category' })
    expect(within(filters).getByRole('radio', { name: 'Travel' })).toBeInTheDocument()
  })

  it("§8 Empty offerings: no offerings at all says 'Sorry, no results have been found'", async () => {
    renderFull('', { offerings: [] })
    expect(
      await screen.findByRole('heading', { name: 'Sorry, no results have been found' }),
    ).toBeInTheDocument()
    expect(screen.queryByRole('switch')).toBeNull()
  })

  it('§2 Offering card: a card opens the details drawer', async () => {
    const { user } = renderFull('', { details: { [medical.id]: medicalDetail } })
    await cardList()
    await user.click(screen.getByRole('button', { name: label(medical) }))
    const dialog = await screen.findByRole('dialog', { name: 'Medical plan' })
    expect(await within(dialog).findByRole('region', { name: 'Get help' })).toBeInTheDocument()
  })

  it('§2 Offering details drawer: an offering whose details are no longer available (404) leaves the list once the drawer says so', async () => {
    const { user } = renderFull('', { details: { [medical.id]: medicalDetail } })
    await cardList()
    // An admin turned the dental benefit off after the list loaded.
    server.use(
      ...offeringsApi({ offerings: allOfferings.filter((o) => o.id !== dental.id) }).handlers,
    )
    await user.click(screen.getByRole('button', { name: label(dental) }))
    const dialog = await screen.findByRole('dialog')
    await within(dialog).findByRole('heading', { name: "This offering isn't available" })
    await user.click(within(dialog).getByRole('button', { name: 'Back to benefits & offers' }))

    await waitFor(() => expect(screen.queryByRole('button', { name: label(dental) })).toBeNull())
    expect(screen.getByRole('button', { name: label(medical) })).toBeInTheDocument()
  })
})
