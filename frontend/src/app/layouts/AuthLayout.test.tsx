import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CUSTOMER_QUOTES, pickQuote } from '@/features/auth/components/quotes'
import { renderWithProviders } from '@/test/render'
import { AuthLayout } from './AuthLayout'

describe('AuthLayout', () => {
  it('§2 sign-in family: an illustrated layout with a customer quote around the page', () => {
    renderWithProviders(<AuthLayout />, {
      route: '/sign-in',
      routes: [{ path: '/sign-in', element: <h1>Sign-in form</h1> }],
    })
    expect(screen.getByRole('heading', { name: 'Sign-in form' })).toBeInTheDocument()
    const shown = CUSTOMER_QUOTES.filter((q) => screen.queryAllByText(`“${q.quote}”`).length > 0)
    expect(shown).toHaveLength(1)
    expect(screen.getAllByText(shown[0].name).length).toBeGreaterThan(0)
    expect(screen.getByText('Concierge')).toBeInTheDocument()
  })

  it('§2 sign-in family: the quote is picked at random', () => {
    expect(pickQuote(() => 0)).toBe(CUSTOMER_QUOTES[0])
    expect(pickQuote(() => 0.999)).toBe(CUSTOMER_QUOTES[CUSTOMER_QUOTES.length - 1])
    expect(CUSTOMER_QUOTES.length).toBeGreaterThanOrEqual(6)
  })
})
