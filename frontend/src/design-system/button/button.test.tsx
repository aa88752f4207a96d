import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { Plus } from 'lucide-react'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { Button } from './Button'

describe('Button', () => {
  it('§4 widget states: buttons and button-styled links ripple when pressed (the ripple utility)', () => {
    render(
      <MemoryRouter>
        <Button>Save</Button>
        <Button to="/requests">Requests</Button>
      </MemoryRouter>,
    )
    expect(screen.getByRole('button', { name: 'Save' })).toHaveClass('ripple')
    expect(screen.getByRole('link', { name: 'Requests' })).toHaveClass('ripple')
  })

  it('§2 button: renders a type="button" button by default and calls onClick', async () => {
    const onClick = vi.fn()
    render(<Button onClick={onClick}>Create a request</Button>)
    const button = screen.getByRole('button', { name: 'Create a request' })
    expect(button).toHaveAttribute('type', 'button')
    await userEvent.click(button)
    expect(onClick).toHaveBeenCalledTimes(1)
  })

  it('§2 button: type submit submits its form', async () => {
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault())
    render(
      <form onSubmit={onSubmit}>
        <Button type="submit">Sign in</Button>
      </form>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it("§2 button: loading state disables, marks busy, spinner labelled 'Loading'", async () => {
    const onClick = vi.fn()
    render(
      <Button loading onClick={onClick}>
        Save
      </Button>,
    )
    const button = screen.getByRole('button', { name: /save/i })
    expect(button).toBeDisabled()
    expect(button).toHaveAttribute('aria-busy', 'true')
    expect(screen.getByRole('img', { name: 'Loading' })).toBeInTheDocument()
    await userEvent.click(button)
    expect(onClick).not.toHaveBeenCalled()
  })

  it('§2 button: not loading → no spinner, not busy', () => {
    render(<Button>Save</Button>)
    const button = screen.getByRole('button', { name: 'Save' })
    expect(button).toBeEnabled()
    expect(button).not.toHaveAttribute('aria-busy')
    expect(screen.queryByLabelText('Loading')).not.toBeInTheDocument()
  })

  it('§2 button: acts as an internal link via `to`', async () => {
    render(
      <MemoryRouter initialEntries={['/']}>
        <Routes>
          <Route path="/" element={<Button to="/dashboard">Go to Home</Button>} />
          <Route path="/dashboard" element={<p>Dashboard page</p>} />
        </Routes>
      </MemoryRouter>,
    )
    const link = screen.getByRole('link', { name: 'Go to Home' })
    expect(link).toHaveAttribute('href', '/dashboard')
    expect(link).not.toHaveAttribute('target')
    await userEvent.click(link)
    expect(screen.getByText('Dashboard page')).toBeInTheDocument()
  })

  it('§2 button: acts as an external link opening a new tab without opener/referrer', () => {
    render(<Button href="https://partner.example.com/quote">Get a quote</Button>)
    const link = screen.getByRole('link', { name: /get a quote/i })
    expect(link).toHaveAttribute('href', 'https://partner.example.com/quote')
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    expect(link).toHaveAccessibleName('Get a quote (opens in a new tab)')
  })

  it('§2 button: icon slot is decorative, full-width option stretches', () => {
    render(
      <Button icon={<Plus data-testid="icon" />} fullWidth variant="secondary" size="sm">
        Add
      </Button>,
    )
    const button = screen.getByRole('button', { name: 'Add' })
    expect(screen.getByTestId('icon').parentElement).toHaveAttribute('aria-hidden', 'true')
    expect(button.className).toContain('w-full')
  })

  it('§2 button: forwards a ref to the <button>', () => {
    let node: HTMLButtonElement | null = null
    render(
      <Button
        ref={(el) => {
          node = el
        }}
      >
        Ref
      </Button>,
    )
    expect(node).toBeInstanceOf(HTMLButtonElement)
  })
})
