import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it } from 'vitest'
import { Link } from './Link'

describe('Link', () => {
  it('§2 link: an internal route navigates in the app, same tab', async () => {
    render(
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<Link to="/forgot-password">Forgot password</Link>} />
          <Route path="/forgot-password" element={<p>Forgot password page</p>} />
        </Routes>
      </MemoryRouter>,
    )
    const link = screen.getByRole('link', { name: 'Forgot password' })
    expect(link).toHaveAttribute('href', '/forgot-password')
    expect(link).not.toHaveAttribute('target')
    await userEvent.click(link)
    expect(screen.getByText('Forgot password page')).toBeInTheDocument()
  })

  it('§2 link: an external address opens in a new tab without referrer or opener access', () => {
    render(<Link href="https://example.com/terms">Terms of use</Link>)
    const link = screen.getByRole('link', { name: 'Terms of use (opens in a new tab)' })
    expect(link).toHaveAttribute('href', 'https://example.com/terms')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    expect(link.querySelector('svg')).toHaveAttribute('aria-hidden', 'true')
  })

  it('§2 link: mailto: links stay in place and say nothing about tabs', () => {
    render(<Link href="mailto:support@example.com">Contact support</Link>)
    const link = screen.getByRole('link', { name: 'Contact support' })
    expect(link).not.toHaveAttribute('target')
    expect(link).toHaveAttribute('href', 'mailto:support@example.com')
  })
})
