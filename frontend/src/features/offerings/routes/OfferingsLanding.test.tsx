import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { makeUser, renderWithProviders } from '@/test/render'
import { server } from '@/test/server'
import indexHtml from '/index.html?raw'
import { MAX_LOGO_REFETCHES } from '../logoRetry'
import { allOfferings, hotels, medical, medicalDetail, offeringsApi } from '../test/fixtures'
import OfferingsLanding from './OfferingsLanding'

const requestDrawer = vi.hoisted(() => ({ open: vi.fn(), close: vi.fn() }))
vi.mock('@/features/request-drawer', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/request-drawer')>()),
  useRequestDrawer: () => ({ ...requestDrawer, target: null }),
}))

function renderLanding(options: Parameters<typeof offeringsApi>[0] = {}) {
  const api = offeringsApi(options)
  server.use(...api.handlers)
  const view = renderWithProviders(<OfferingsLanding />, {
    route: '/benefits-and-offers',
    user: makeUser(),
  })
  return { ...view, api }
}

beforeEach(() => {
  requestDrawer.open.mockReset()
})

describe('§2 OfferingsLanding', () => {
  it("§2 OfferingsLanding: the 'Benefits & Offers' heading with intro text and a disclaimer", async () => {
    renderLanding()
    expect(screen.getByRole('heading', { level: 1, name: 'Benefits & Offers' })).toBeInTheDocument()
    expect(screen.getByText(/all in one place/)).toBeInTheDocument()
    expect(screen.getByText(/Partner offers are provided by third parties/)).toBeInTheDocument()
    await screen.findByRole('heading', { name: 'Your Benefits' })
  })

  it("Issue 8 first paint: the skeleton in index.html shows this screen's header, word for word", () => {
    renderLanding()
    const heading = screen.getByRole('heading', { level: 1, name: 'Benefits & Offers' })
    const intro = heading.nextElementSibling
    const shell = new DOMParser()
      .parseFromString(indexHtml, 'text/html')
      .querySelector('.app-shell [data-for~="benefits-and-offers"]')
    const words = (node: Element | null | undefined) =>
      node?.textContent?.replace(/\s+/g, ' ').trim()
    expect(words(shell?.children[0])).toBe(words(heading))
    expect(words(shell?.children[1])).toBe(words(intro))
    expect(shell?.children[0].className).toBe(heading.className)
    expect(shell?.children[1].className).toBe(intro?.className)
  })

  it("§2 OfferingsLanding / §7 Offerings: featured benefits and offers, each with 'View all'", async () => {
    const { api } = renderLanding()
    const benefits = await screen.findByRole('region', { name: 'Your Benefits' })
    const offers = await screen.findByRole('region', { name: 'Exclusive Partner Offers' })

    expect(within(benefits).getByRole('link', { name: /View all/ })).toHaveAttribute(
      'href',
      '/benefits-and-offers/all?type=benefit',
    )
    expect(within(offers).getByRole('link', { name: /View all/ })).toHaveAttribute(
      'href',
      '/benefits-and-offers/all',
    )
    expect(
      within(benefits)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual([
      'BlueHarbor Health, Medical plan, PPO and HMO options, View details (benefit)',
      'BrightSmile Dental, Dental & vision, Cleanings covered at 100%, View details (benefit)',
    ])
    expect(
      within(offers)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Wanderly, Hotel discounts, Up to 40% off worldwide, View details (offer)'])
    // The featured variant of the list call (spec §7).
    expect(api.log.listQueries.sort()).toEqual([
      '?types=benefit&limit=6&prefer_featured=true',
      '?types=product&limit=6&prefer_featured=true',
    ])
  })

  it("§2 OfferingsLanding: 'Your Benefits' appears only if featured benefits exist", async () => {
    renderLanding({ featured: [hotels] })
    await screen.findByRole('region', { name: 'Exclusive Partner Offers' })
    expect(screen.queryByRole('heading', { name: 'Your Benefits' })).toBeNull()
    expect(screen.getAllByRole('link', { name: /View all/ })).toHaveLength(1)
  })

  it("§2 OfferingsLanding: the 'Exclusive … Offers' section appears only if featured products exist", async () => {
    renderLanding({ featured: [medical] })
    await screen.findByRole('region', { name: 'Your Benefits' })
    expect(screen.queryByRole('heading', { name: /Exclusive .*Offers/ })).toBeNull()
    expect(screen.getAllByRole('link', { name: /View all/ })).toHaveLength(1)
  })

  it('§2 OfferingsLanding: neither section without featured offerings; the help block stays', async () => {
    const { api } = renderLanding({ featured: [] })
    await waitFor(() => expect(api.log.listQueries).toHaveLength(2))
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull())
    expect(screen.queryByRole('heading', { name: 'Your Benefits' })).toBeNull()
    expect(screen.queryByRole('heading', { name: /Exclusive .*Offers/ })).toBeNull()
    expect(
      screen.getByRole('heading', { name: 'Need help with your benefits?' }),
    ).toBeInTheDocument()
  })

  it("§2 OfferingsLanding: 'Request help' starts request survey 720 ('Help me with my benefits')", async () => {
    const { user } = renderLanding()
    const help = screen.getByRole('region', { name: 'Need help with your benefits?' })
    await user.click(within(help).getByRole('button', { name: 'Request help' }))
    expect(requestDrawer.open).toHaveBeenCalledWith({
      surveyId: 720,
      surveyName: 'Help me with my benefits',
    })
  })

  it('§2 Offering card: a card opens the details drawer for that offering', async () => {
    const { user, api } = renderLanding({ details: { [medical.id]: medicalDetail } })
    await user.click(
      await screen.findByRole('button', {
        name: 'BlueHarbor Health, Medical plan, PPO and HMO options, View details (benefit)',
      }),
    )
    const dialog = await screen.findByRole('dialog', { name: 'Medical plan' })
    expect(
      await within(dialog).findByRole('region', { name: 'Contact BlueHarbor' }),
    ).toBeInTheDocument()
    expect(api.log.detailIds).toEqual([medical.id])
  })

  it('§2 Offering card: the provider logo is a decorative image; cards on the landing page have no benefit icon', async () => {
    renderLanding()
    const card = await screen.findByRole('button', { name: /Medical plan/ })
    const img = card.querySelector('img')
    expect(img).toHaveAttribute('alt', '')
    expect(img).toHaveAttribute('src', medical.provider_logo_url)
    expect(card.querySelector('[data-benefit-icon]')).toBeNull()
  })

  it(`§4 Offerings: a logo that fails to load refetches the offerings, at most ${MAX_LOGO_REFETCHES} times`, async () => {
    const { api } = renderLanding({ offerings: allOfferings })
    const card = await screen.findByRole('button', { name: /Medical plan/ })
    const benefitCalls = () => api.log.listQueries.filter((q) => q.includes('types=benefit')).length
    expect(benefitCalls()).toBe(1)

    for (let refetch = 1; refetch <= MAX_LOGO_REFETCHES; refetch += 1) {
      const img = card.querySelector('img') as HTMLImageElement
      fireEvent.error(img)
      // The failed logo shows the provider's initials until the refetch is back.
      expect(card.querySelector('[data-initials="BH"]')).not.toBeNull()
      // Several broken logos at once still make one refetch.
      const other = screen.getByRole('button', { name: /Dental/ }).querySelector('img')
      if (other) fireEvent.error(other)
      await waitFor(() => expect(card.querySelector('img')).not.toBeNull(), { timeout: 3000 })
      expect(benefitCalls()).toBe(1 + refetch)
    }

    fireEvent.error(card.querySelector('img') as HTMLImageElement)
    await new Promise((resolve) => setTimeout(resolve, 1200))
    expect(benefitCalls()).toBe(1 + MAX_LOGO_REFETCHES)
    expect(card.querySelector('img')).toBeNull()
    expect(card.querySelector('[data-initials="BH"]')).not.toBeNull()
  }, 15_000)
})
