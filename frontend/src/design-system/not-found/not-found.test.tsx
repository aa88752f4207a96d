import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { NotFound } from './NotFound'

describe('NotFound', () => {
  it("§2 NotFound: the spec texts and a 'Go to Home' button to the root", () => {
    renderWithProviders(<NotFound />, { route: '/nowhere' })
    expect(
      screen.getByRole('heading', { level: 1, name: "Oops! We can't find that page." }),
    ).toBeInTheDocument()
    expect(
      screen.getByText("The page you're looking for seems to have wandered off."),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Home' })).toHaveAttribute('href', '/')
  })
})
