import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import ForgotPassword from './ForgotPassword'

describe('ForgotPassword', () => {
  it('§5 forgot password: the same email rules as sign-in', async () => {
    const { user } = renderWithProviders(<ForgotPassword />, { route: '/forgot-password' })
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Email address'), 'jane@')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
  })

  it("§2 forgot password: after submit shows the recovery text and a 'Return to sign in' link", async () => {
    let sent: unknown
    server.use(
      http.post(apiUrl('/api/v1/users/password'), async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderWithProviders(<ForgotPassword />, { route: '/forgot-password' })
    await user.type(screen.getByLabelText('Email address'), 'jane@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(
      await screen.findByText(
        'If your email address exists in our database, you will receive a password recovery link at your email address in a few minutes.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to sign in' })).toHaveAttribute(
      'href',
      '/sign-in',
    )
    expect(sent).toEqual({ user: { email: 'jane@example.com' } })
  })

  it('§2 forgot password: after submit the focus moves to the recovery text, not the page', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/password'), () => HttpResponse.json({ success: true })),
    )
    const { user } = renderWithProviders(<ForgotPassword />, { route: '/forgot-password' })
    await user.type(screen.getByLabelText('Email address'), 'jane@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    const status = await screen.findByRole('status')
    expect(status).toHaveTextContent('If your email address exists in our database')
    expect(status).toHaveFocus()
  })

  it('§8 password-reset request failure: the server error shows in the error box', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/password'), () => errorResponse(429, 'Too many requests.')),
    )
    const { user } = renderWithProviders(<ForgotPassword />, { route: '/forgot-password' })
    await user.type(screen.getByLabelText('Email address'), 'jane@example.com')
    await user.click(screen.getByRole('button', { name: 'Send reset link' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many requests.')
  })
})
