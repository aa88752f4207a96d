import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { session } from '@/lib/session'
import { currentUserOk, errorResponse } from '@/test/handlers'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import MfaEnrollment from './MfaEnrollment'

function renderEnrollment(state?: unknown) {
  signInSession()
  session.setMfaEnrollmentAvailable(true)
  return renderWithProviders(<MfaEnrollment />, { route: '/mfa-enrollment', state })
}

function enrollAndVerifyOk(sent: { phone?: unknown; otp?: unknown } = {}) {
  return [
    http.post(apiUrl('/api/v1/mfa'), async ({ request }) => {
      sent.phone = ((await request.json()) as { mfa_number: string }).mfa_number
      return HttpResponse.json({ success: true })
    }),
    http.post(apiUrl('/api/v1/mfa/verify'), async ({ request }) => {
      sent.otp = ((await request.json()) as { otp: string }).otp
      return HttpResponse.json({ success: true }, { headers: { 'mfa-token': 'mfa-xyz' } })
    }),
  ]
}

type User = ReturnType<typeof renderEnrollment>['user']

async function enroll(user: User) {
  await user.type(screen.getByLabelText('Mobile phone number'), '5551234567')
  await user.click(screen.getByRole('button', { name: 'Send code' }))
  await user.type(await screen.findByLabelText('Verification code'), '123456')
  await user.click(screen.getByRole('button', { name: 'Verify' }))
}

describe('MfaEnrollment', () => {
  it("§5 MFA phone: fewer than 10 digits shows 'Please enter a valid phone number'", async () => {
    const { user } = renderEnrollment()
    await user.type(screen.getByLabelText('Mobile phone number'), '555123')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument()
  })

  it('§5 MFA phone: an invalid number takes the focus, and its message follows the number as it changes', async () => {
    const { user } = renderEnrollment()
    const phone = screen.getByLabelText('Mobile phone number')
    await user.type(phone, '555123')
    await user.tab()
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument()
    expect(phone).toHaveFocus()
    expect(phone).toHaveAttribute('aria-invalid', 'true')
    await user.type(phone, '4567')
    await waitFor(() =>
      expect(screen.queryByText('Please enter a valid phone number')).not.toBeInTheDocument(),
    )
    expect(phone).not.toHaveAttribute('aria-invalid')
  })

  it('§4 MFA enrolment: phone form, then code form; success with onboarding required goes to AboutUs', async () => {
    const sent: { phone?: unknown; otp?: unknown } = {}
    server.use(...enrollAndVerifyOk(sent), currentUserOk(makeUser({ onboarding_required: true })))
    const { user, router } = renderEnrollment()
    await enroll(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/about-us'))
    expect(sent).toEqual({ phone: '5551234567', otp: '123456' })
    expect(session.get().mfaToken).toBe('mfa-xyz')
    expect(session.get().mfaEnrollmentAvailable).toBe(false)
  })

  it('§4 MFA enrolment: success without onboarding goes to the post-login landing', async () => {
    server.use(...enrollAndVerifyOk(), currentUserOk(makeUser({ onboarding_required: false })))
    const { user, router } = renderEnrollment()
    await enroll(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
  })

  it('Issue 13: opened from the Account page, it offers a way back there and returns there once the phone is added', async () => {
    server.use(...enrollAndVerifyOk(), currentUserOk(makeUser({ mfa_enabled: true })))
    const { user, router } = renderEnrollment({ from: 'account' })
    expect(screen.getByRole('link', { name: 'Back to Account' })).toHaveAttribute(
      'href',
      '/account',
    )
    expect(screen.queryByRole('button', { name: 'Sign out' })).toBeNull()
    await enroll(user)
    await waitFor(() => expect(router.state.location.pathname).toBe('/account'))
  })

  it('§8 MFA enrolment failure: the server error shows in the error box', async () => {
    server.use(
      http.post(apiUrl('/api/v1/mfa'), () =>
        errorResponse(422, 'This phone number cannot receive texts.'),
      ),
    )
    const { user } = renderEnrollment()
    await user.type(screen.getByLabelText('Mobile phone number'), '5551234567')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'This phone number cannot receive texts.',
    )
  })

  it("§2 MFA enrolment: the code form has a 'Resend code' action and shows the masked number", async () => {
    server.use(...enrollAndVerifyOk())
    const { user } = renderEnrollment()
    await user.type(screen.getByLabelText('Mobile phone number'), '5551234567')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    expect(await screen.findByText(/\(555\) 123-4567/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Resend code' })).toBeInTheDocument()
  })

  it("§2 MFA code: pressing 'Resend code' again and again shows one message, not a stack over the form", async () => {
    server.use(
      ...enrollAndVerifyOk(),
      http.post(apiUrl('/api/v1/mfa/send-otp'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    const { user } = renderEnrollment()
    await user.type(screen.getByLabelText('Mobile phone number'), '5551234567')
    await user.click(screen.getByRole('button', { name: 'Send code' }))
    const resend = await screen.findByRole('button', { name: 'Resend code' })
    for (let i = 0; i < 4; i++) {
      await user.click(resend)
      await waitFor(() => expect(resend).not.toBeDisabled())
    }
    await waitFor(() =>
      expect(
        screen.getAllByText('Too many attempts. Please wait a minute and try again.'),
      ).toHaveLength(1),
    )
  })
})
