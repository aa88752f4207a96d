import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Logo } from './Logo'

describe('Logo', () => {
  it('§2 logo: logotype shows the product name as text next to a decorative mark', () => {
    const { container } = render(<Logo productName="Acme Concierge" />)
    expect(screen.getByText('Acme Concierge')).toBeVisible()
    const svg = container.querySelector('svg')
    expect(svg).toHaveAttribute('aria-hidden', 'true')
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
  })

  it('§2 logo: logo variant is the mark alone, named by the product name', () => {
    render(<Logo variant="logo" productName="Acme Concierge" />)
    expect(screen.getByRole('img', { name: 'Acme Concierge' })).toBeInTheDocument()
    expect(screen.queryByText('Acme Concierge', { selector: 'span' })).not.toBeInTheDocument()
  })

  it("§2 logo: product name defaults to 'Concierge'", () => {
    render(<Logo />)
    expect(screen.getByText('Concierge')).toBeInTheDocument()
  })
})
