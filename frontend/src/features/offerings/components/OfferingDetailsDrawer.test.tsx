import { act, screen, waitFor, within } from '@testing-library/react'
import { delay, HttpResponse, http } from 'msw'
import { useState } from 'react'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { Offering } from '../api'
import { hotels, makeDetail, medical, medicalDetail, offeringsApi } from '../test/fixtures'
import { OfferingDetailsDrawer } from './OfferingDetailsDrawer'

const requestDrawer = vi.hoisted(() => ({ open: vi.fn(), close: vi.fn() }))
vi.mock('@/features/request-drawer', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/features/request-drawer')>()),
  useRequestDrawer: () => ({ ...requestDrawer, target: null }),
}))

function Harness({ offering }: { offering: Offering }) {
  const [selected, setSelected] = useState<Offering | null>(null)
  return (
    <>
      <button type="button" onClick={() => setSelected(offering)}>
        Open {offering.heading}
      </button>
      <OfferingDetailsDrawer
        offeringId={selected?.id ?? null}
        preview={selected}
        onClose={() => setSelected(null)}
      />
    </>
  )
}

async function openDrawer(
  offering: Offering,
  details: NonNullable<Parameters<typeof offeringsApi>[0]>['details'],
  { slow = false } = {},
) {
  const api = offeringsApi({ details })
  server.use(...api.handlers)
  if (slow) {
    server.use(
      http.get(apiUrl('/api/v1/offerings/:id'), async ({ params }) => {
        await delay(150)
        api.log.detailIds.push(Number(params.id))
        return HttpResponse.json({ offering: details?.[Number(params.id)] })
      }),
    )
  }
  const view = renderWithProviders(<Harness offering={offering} />, {
    route: '/benefits-and-offers',
  })
  await view.user.click(screen.getByRole('button', { name: `Open ${offering.heading}` }))
  const dialog = await screen.findByRole('dialog')
  return { ...view, api, dialog }
}

beforeEach(() => {
  requestDrawer.open.mockReset()
  requestDrawer.close.mockReset()
})

describe('§2 Offering details drawer', () => {
  it('§4 Offerings: opening the drawer fetches that offering and shows a skeleton meanwhile', async () => {
    const { dialog, api } = await openDrawer(
      medical,
      { [medical.id]: medicalDetail },
      { slow: true },
    )
    expect(
      within(dialog).getAllByRole('status', { name: 'Loading offering details' }).length,
    ).toBeGreaterThan(0)
    expect(
      await within(dialog).findByRole('heading', { name: 'Find an in-network doctor' }),
    ).toBeInTheDocument()
    expect(api.log.detailIds).toEqual([medical.id])
    expect(within(dialog).queryByRole('status', { name: 'Loading offering details' })).toBeNull()
  })

  it('§2 Offering details drawer: a benefit shows its provider logo, heading and name, without the Partner offer label', async () => {
    const { dialog } = await openDrawer(medical, { [medical.id]: medicalDetail })
    await within(dialog).findByRole('heading', { name: 'Find an in-network doctor' })
    expect(dialog).toHaveAccessibleName('Medical plan')
    expect(
      within(dialog).getByRole('heading', { level: 2, name: 'Medical plan' }),
    ).toBeInTheDocument()
    expect(within(dialog).getByText('BlueHarbor PPO 500')).toBeInTheDocument()
    expect(within(dialog).getByRole('img', { name: 'BlueHarbor Health' })).toHaveAttribute(
      'src',
      medical.provider_logo_url,
    )
    expect(within(dialog).queryByText('Partner offer')).toBeNull()
  })

  it("§2 Offering details drawer: an offer shows its heading plus a 'Partner offer' label", async () => {
    const detail = makeDetail({ ...hotels, sections: [] })
    const { dialog } = await openDrawer(hotels, { [hotels.id]: detail })
    await waitFor(() => expect(within(dialog).queryByRole('status')).toBeNull())
    expect(within(dialog).getByText('Partner offer')).toBeInTheDocument()
    expect(
      within(dialog).getByRole('heading', { level: 2, name: 'Hotel discounts' }),
    ).toBeInTheDocument()
    expect(within(dialog).getByText('Wanderly Member Rates')).toBeInTheDocument()
  })

  it('§2 Offering details drawer: numbered sections show the heading, numbered items and the call-to-action link', async () => {
    const { dialog } = await openDrawer(medical, { [medical.id]: medicalDetail })
    const section = await within(dialog).findByRole('region', { name: 'Find an in-network doctor' })
    const list = within(section).getByRole('list')
    expect(list.tagName).toBe('OL')
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      'Sign in with your member ID.',
      "Choose 'Find care' and search.",
      'Call the office to book.',
    ])
    const cta = within(section).getByRole('link', { name: /Search doctors/ })
    expect(cta).toHaveAttribute('href', 'https://www.blueharbor.example/find-care')
    expect(cta).toHaveAttribute('target', '_blank')
    expect(cta).toHaveAttribute('rel', 'noopener noreferrer')
  })

  it('§2 Offering details drawer: key_value rows with phone, email, link and download render as links', async () => {
    const { dialog } = await openDrawer(medical, { [medical.id]: medicalDetail })
    const section = await within(dialog).findByRole('region', { name: 'Contact BlueHarbor' })
    const phone = within(section).getByRole('link', { name: '+1 (800) 555-0142' })
    expect(phone).toHaveAttribute('href', 'tel:+18005550142')
    expect(phone).not.toHaveAttribute('target')
    const email = within(section).getByRole('link', { name: 'members@blueharbor.example' })
    expect(email).toHaveAttribute('href', 'mailto:members@blueharbor.example')
    expect(email).not.toHaveAttribute('target')
    const link = within(section).getByRole('link', { name: /www\.blueharbor\.example\/find-care/ })
    expect(link).toHaveAttribute('href', 'https://www.blueharbor.example/find-care')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    const download = within(section).getByRole('link', { name: /Summary of benefits \(PDF\)/ })
    expect(download).toHaveAttribute('href', '/media/docs/summary.pdf')
    expect(download).toHaveAttribute('target', '_blank')
  })

  it('§2 Offering details drawer: other key_value keys render as label and value', async () => {
    const { dialog } = await openDrawer(medical, { [medical.id]: medicalDetail })
    const section = await within(dialog).findByRole('region', { name: 'Contact BlueHarbor' })
    const term = within(section).getByText('Group number')
    expect(term.tagName).toBe('DT')
    const value = within(section).getByText('ACME-4471')
    expect(value.tagName).toBe('DD')
    expect(within(value).queryByRole('link')).toBeNull()
    expect(
      within(section)
        .getAllByRole('term')
        .map((dt) => dt.textContent),
    ).toEqual(['Phone', 'Email', 'Website', 'Download', 'Group number'])
  })

  it('§2 Offering details drawer: phone and email rows use external_url when given', async () => {
    const detail = makeDetail({
      sections: [
        {
          id: 1,
          section_type: 'key_value',
          heading: 'Contact',
          items: [
            { key: 'phone', value: '1 (800) 555-0188', external_url: 'tel:+18005550188' },
            {
              key: 'email',
              value: 'help@x.example',
              external_url: 'mailto:help@x.example?subject=Hi',
            },
          ],
          cta_url: null,
          cta_text: null,
        },
      ],
    })
    const { dialog } = await openDrawer(medical, { [medical.id]: detail })
    const section = await within(dialog).findByRole('region', { name: 'Contact' })
    expect(within(section).getByRole('link', { name: '1 (800) 555-0188' })).toHaveAttribute(
      'href',
      'tel:+18005550188',
    )
    expect(within(section).getByRole('link', { name: 'help@x.example' })).toHaveAttribute(
      'href',
      'mailto:help@x.example?subject=Hi',
    )
  })

  it("§2 Offering details drawer: text sections show the heading, the first item's text and the optional link", async () => {
    const { dialog } = await openDrawer(medical, { [medical.id]: medicalDetail })
    const section = await within(dialog).findByRole('region', { name: 'Your plan at a glance' })
    expect(within(section).getByText('$500 individual deductible.')).toBeInTheDocument()
    expect(within(section).queryByText('This second item is not shown.')).toBeNull()
    expect(within(section).getByRole('link', { name: /Read the plan/ })).toHaveAttribute(
      'href',
      'https://www.blueharbor.example/plan',
    )
  })

  it('§2 Offering details drawer: sections without a call to action have no link', async () => {
    const detail = makeDetail({
      sections: [
        {
          id: 1,
          section_type: 'text',
          heading: 'Good to know',
          items: [{ key: null, value: 'Refundable up to 48 hours before.', external_url: null }],
          cta_url: null,
          cta_text: null,
        },
        {
          id: 2,
          section_type: 'numbered',
          heading: 'Steps',
          items: [{ key: null, value: 'Book.', external_url: null }],
          cta_url: null,
          cta_text: null,
        },
      ],
    })
    const { dialog } = await openDrawer(medical, { [medical.id]: detail })
    await within(dialog).findByRole('region', { name: 'Good to know' })
    expect(within(dialog).queryAllByRole('link')).toEqual([])
  })

  // That the request drawer then takes the details drawer's place: DetailsDrawer.test.tsx.
  it("§2 Offering details drawer: 'Get help' opens the request drawer on the offering's survey, carrying that offering", async () => {
    const detail = makeDetail({
      ...medicalDetail,
      request_survey_cta: 'Help me enroll',
      request_survey_id: 731,
      request_survey_name: 'Enroll in my 401(k)',
    })
    const { dialog, user } = await openDrawer(medical, { [medical.id]: detail })
    const block = await within(dialog).findByRole('region', { name: 'Get help' })
    await user.click(within(block).getByRole('button', { name: 'Help me enroll' }))
    expect(requestDrawer.open).toHaveBeenCalledTimes(1)
    expect(requestDrawer.open).toHaveBeenCalledWith({
      surveyId: 731,
      surveyName: 'Enroll in my 401(k)',
      offeringId: medical.id,
      onOfferingGone: expect.any(Function),
    })
  })

  it("issue 29 intake: 'Get help' on Medical coverage hands the request drawer the answer its survey starts with", async () => {
    const detail = makeDetail({
      ...medicalDetail,
      request_survey_cta: 'Help me with my benefits',
      request_survey_id: 720,
      request_survey_name: 'Help me with my benefits',
      request_survey_answer: { question_id: 4101, value: 'medical' },
    })
    const { dialog, user } = await openDrawer(medical, { [medical.id]: detail })
    const block = await within(dialog).findByRole('region', { name: 'Get help' })
    await user.click(within(block).getByRole('button', { name: 'Help me with my benefits' }))
    expect(requestDrawer.open).toHaveBeenCalledWith({
      surveyId: 720,
      surveyName: 'Help me with my benefits',
      offeringId: medical.id,
      onOfferingGone: expect.any(Function),
      answer: { questionId: 4101, value: 'medical' },
    })
  })

  it("an offer turned off while its details are shown no longer offers 'Get help' once its 'Get help' was refused", async () => {
    const detail = makeDetail({
      ...medicalDetail,
      request_survey_cta: 'Help me enroll',
      request_survey_id: 731,
    })
    const { dialog, user } = await openDrawer(medical, { [medical.id]: detail })
    const block = await within(dialog).findByRole('region', { name: 'Get help' })
    await user.click(within(block).getByRole('button', { name: 'Help me enroll' }))

    // An admin turned the offer off meanwhile: the request drawer's begin was refused.
    server.use(...offeringsApi({ details: {} }).handlers)
    const [target] = requestDrawer.open.mock.calls[0] ?? []
    act(() => target.onOfferingGone())

    expect(
      await within(dialog).findByRole(
        'heading',
        { name: "This offering isn't available" },
        { timeout: 3000 },
      ),
    ).toBeInTheDocument()
    expect(within(dialog).queryByRole('region', { name: 'Get help' })).toBeNull()
  })

  it("§2 Offering details drawer: no 'Get help' block without request_survey_cta", async () => {
    const detail = makeDetail({
      ...medicalDetail,
      request_survey_cta: null,
      request_survey_id: null,
    })
    const { dialog } = await openDrawer(medical, { [medical.id]: detail })
    await within(dialog).findByRole('region', { name: 'Contact BlueHarbor' })
    expect(within(dialog).queryByRole('region', { name: 'Get help' })).toBeNull()
  })

  it('§2 Offering details drawer: an offering that is not available (404) shows a friendly message', async () => {
    const { dialog, user } = await openDrawer(medical, {})
    expect(
      await within(dialog).findByRole('heading', { name: "This offering isn't available" }),
    ).toBeInTheDocument()
    await user.click(within(dialog).getByRole('button', { name: 'Back to benefits & offers' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })

  it('§ Benefits & Offers, Offering details drawer: a long unbroken word an admin wrote in any section wraps inside the drawer at 375 px instead of widening it', async () => {
    const word = 'Pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(3)
    const item = (value: string, key: string | null = null) => ({ key, value, external_url: null })
    const detail = makeDetail({
      ...medicalDetail,
      sections: [
        {
          id: 201,
          section_type: 'numbered',
          heading: 'Steps',
          items: [item(`Step ${word}`)],
          cta_url: 'https://example.com/steps',
          cta_text: `Go ${word}`,
        },
        {
          id: 202,
          section_type: 'key_value',
          heading: 'Contact',
          items: [item(`Value ${word}`, `Key ${word}`), item(`www.${word}.example`, 'link')],
          cta_url: null,
          cta_text: null,
        },
      ],
    })
    const { dialog } = await openDrawer(medical, { [medical.id]: detail })
    await within(dialog).findByRole('region', { name: 'Steps' })
    const texts = [
      `Step ${word}`,
      `Go ${word}`,
      `Value ${word}`,
      `Key ${word}`,
      `www.${word}.example`,
    ]
    for (const text of texts) {
      const wrapping = within(dialog).getByText(text).closest('.wrap-anywhere')
      expect(wrapping, text).not.toBeNull()
      expect(dialog).toContainElement(wrapping as HTMLElement)
    }
  })

  it('§2 Design-system pieces: the drawer closes with Escape', async () => {
    const { dialog, user } = await openDrawer(medical, { [medical.id]: medicalDetail })
    await within(dialog).findByRole('region', { name: 'Contact BlueHarbor' })
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
  })
})
