import { screen } from '@testing-library/react'
import type { ComponentType } from 'react'
import { describe, expect, it } from 'vitest'
import OfferingsFull from '@/features/offerings/routes/OfferingsFull'
import OfferingsLanding from '@/features/offerings/routes/OfferingsLanding'
import Request from '@/features/requests/routes/Request'
import RequestCategory from '@/features/requests/routes/RequestCategory'
import Requests from '@/features/requests/routes/Requests'
import { makeUser, renderWithProviders } from '@/test/render'

const screens: Array<[string, ComponentType, string]> = [
  ['Requests', Requests, 'Requests'],
  ['Request', Request, 'Request'],
  ['RequestCategory', RequestCategory, 'Request category'],
  ['OfferingsLanding', OfferingsLanding, 'Benefits & Offers'],
  ['OfferingsFull', OfferingsFull, 'All benefits & offers'],
]

describe('placeholder screens', () => {
  it.each(screens)('§2 %s: a heading and a friendly coming-soon state with the assistant', (_, Screen, title) => {
    renderWithProviders(<Screen />, { route: '/somewhere', user: makeUser() })
    expect(screen.getByRole('heading', { level: 1, name: title })).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Penny' })).toBeInTheDocument()
  })
})
