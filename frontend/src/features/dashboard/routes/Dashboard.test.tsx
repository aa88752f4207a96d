import { screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { makeUser, renderWithProviders } from '@/test/render'
import Dashboard from './Dashboard'

describe('Dashboard (placeholder)', () => {
  it("§2 dashboard: welcomes the user by first name and shows 'Brought to you by' for small screens", () => {
    renderWithProviders(<Dashboard />, {
      route: '/dashboard',
      user: makeUser({ first_name: 'Ada', companies: [{ id: 3, name: 'Initech', image_url: null }] }),
    })
    expect(screen.getByRole('heading', { level: 1, name: 'Welcome, Ada' })).toBeInTheDocument()
    expect(screen.getByRole('region', { name: 'Brought to you by' })).toHaveTextContent('Initech')
  })
})
