import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { returnTarget, session } from '@/lib/session'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import Account from './Account'

function renderAccount(user = makeUser()) {
  return renderWithProviders(<Account />, { route: '/account', user })
}

describe('Account', () => {
  it("§2 account: 'Account Settings' with the owner's name and email", () => {
    renderAccount(makeUser({ full_name: 'Jane Q Doe', email: 'jane@example.com' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeInTheDocument()
    expect(screen.getByText('Jane Q Doe')).toBeInTheDocument()
    expect(screen.getByText('jane@example.com')).toBeInTheDocument()
  })

  it('§4 sign-out: calls the server, clears the session and goes to SignIn', async () => {
    let called = false
    server.use(
      http.delete(apiUrl('/api/v1/users/sign_out'), () => {
        called = true
        return HttpResponse.json({ success: true })
      }),
    )
    signInSession()
    const { user, router } = renderAccount()
    await user.click(screen.getByRole('button', { name: 'Sign Out' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect(called).toBe(true)
    expect(session.isAuthenticated()).toBe(false)
    expect(returnTarget.take()).toBeNull()
  })

  it("§2 account: a support email link and 'Close Account' emails support; 'This action cannot be undone'", () => {
    renderAccount()
    expect(screen.getByRole('link', { name: 'support@example.com' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
    expect(screen.getByRole('link', { name: 'Close Account' })).toHaveAttribute(
      'href',
      'mailto:support@example.com?subject=Close%20my%20account',
    )
    expect(screen.getByText(/This action cannot be undone/)).toBeInTheDocument()
  })

  it('§4 MFA: offers two-step verification set-up when enrolment is available', () => {
    renderAccount(makeUser({ mfa_enabled: false, mfa_enrollment_available: true }))
    expect(screen.getByRole('link', { name: 'Set up two-step verification' })).toHaveAttribute(
      'href',
      '/mfa-enrollment',
    )
  })

  it('§4 MFA: shows two-step verification as on when enabled', () => {
    renderAccount(makeUser({ mfa_enabled: true, mfa_enrollment_available: true }))
    expect(screen.getByText(/Two-step verification is on/)).toBeInTheDocument()
    expect(screen.queryByRole('link', { name: 'Set up two-step verification' })).toBeNull()
  })
})
