import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { makeUser, renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { EmailVerificationNotice } from './EmailVerificationNotice'

function renderNotice(pending: boolean) {
  return renderWithProviders(<EmailVerificationNotice />, {
    route: '/dashboard',
    user: makeUser({ email: 'ann@initech.example', email_verification_pending: pending }),
  })
}

describe('EmailVerificationNotice', () => {
  it('375 px: a long work email wraps inside the notice instead of widening the page', () => {
    const email = 'firstname.middlename.lastname@payroll-and-benefits.initech.example'
    renderWithProviders(<EmailVerificationNotice />, {
      route: '/dashboard',
      user: makeUser({ email, email_verification_pending: true }),
    })
    // jsdom lays nothing out: the sentence naming the address may break anywhere (a word of
    // 66 characters is wider than a phone's 375 px).
    expect(screen.getByText(new RegExp(`link we sent to ${email}`))).toHaveClass('wrap-anywhere')
  })

  it('Hardening 9: nothing shows once the email is verified (or needs no verifying)', () => {
    renderNotice(false)
    expect(screen.queryByText(/Check your inbox/)).not.toBeInTheDocument()
  })

  it("Hardening 9: while unverified it asks to check the inbox; 'Resend' sends a new link and says so", async () => {
    let calls = 0
    server.use(
      http.post(apiUrl('/api/v1/users/verify_email/resend'), () => {
        calls += 1
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderNotice(true)
    expect(
      screen.getByRole('region', { name: 'Check your inbox to confirm your email address' }),
    ).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Resend' }))
    expect(
      await screen.findByText('We’ve sent a new confirmation link to ann@initech.example.'),
    ).toBeInTheDocument()
    expect(calls).toBe(1)
  })

  it("Hardening 9: a refused 'Resend' shows the server's message", async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/verify_email/resend'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    const { user } = renderNotice(true)
    await user.click(screen.getByRole('button', { name: 'Resend' }))
    expect(
      await screen.findByText('Too many attempts. Please wait a minute and try again.'),
    ).toBeInTheDocument()
  })
})
