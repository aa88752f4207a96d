import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { returnTarget, session } from '@/lib/session'
import { currentUserOk, errorResponse, mfaMethodsOk, signInOk } from '@/test/handlers'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import SignIn from './SignIn'

function renderSignIn() {
  return renderWithProviders(<SignIn />, { route: '/sign-in' })
}

async function fillAndSubmit(
  user: ReturnType<typeof renderSignIn>['user'],
  email: string,
  password: string,
) {
  if (email) await user.type(screen.getByLabelText('Email address'), email)
  if (password) await user.type(screen.getByLabelText('Password'), password)
  await user.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('SignIn', () => {
  it("§5 sign-in: empty fields show 'Please enter your email address' and 'Please enter your password'", async () => {
    const { user } = renderSignIn()
    await fillAndSubmit(user, '', '')
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument()
    expect(screen.getByText('Please enter your password')).toBeInTheDocument()
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-invalid', 'true')
  })

  it('§5 sign-in: the first invalid field takes the focus; after a submit, a message follows its field as the user types', async () => {
    const { user } = renderSignIn()
    await user.type(screen.getByLabelText('Password'), '123')
    await user.click(screen.getByRole('button', { name: 'Sign in' }))
    expect(await screen.findByText('Please enter your email address')).toBeInTheDocument()
    expect(screen.getByText('Please enter a valid password')).toBeInTheDocument()
    expect(screen.getByLabelText('Email address')).toHaveFocus()
    await user.type(screen.getByLabelText('Email address'), 'jane@')
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Email address'), 'example.com')
    await waitFor(() =>
      expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument(),
    )
    expect(screen.getByLabelText('Email address')).not.toHaveAttribute('aria-invalid')
    expect(screen.getByText('Please enter a valid password')).toBeInTheDocument()
    await user.type(screen.getByLabelText('Password'), '456')
    await waitFor(() =>
      expect(screen.queryByText('Please enter a valid password')).not.toBeInTheDocument(),
    )
  })

  it('§5 sign-in: surrounding spaces of the email are dropped before it is sent', async () => {
    const sent: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/users/sign_in'), async ({ request }) => {
        sent.push(await request.json())
        return errorResponse(401, 'Invalid email or password.')
      }),
    )
    const { user } = renderSignIn()
    await fillAndSubmit(user, '  jane@example.com ', 'secret123')
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.')
    expect(sent).toEqual([{ user: { email: 'jane@example.com', password: 'secret123' } }])
  })

  it("§5 sign-in: a malformed email shows 'Please enter a valid email address'", async () => {
    const { user } = renderSignIn()
    await fillAndSubmit(user, 'not-an-email', 'secret123')
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
  })

  it("§5 sign-in: password under 6 characters shows 'Please enter a valid password'", async () => {
    const { user } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', '12345')
    expect(await screen.findByText('Please enter a valid password')).toBeInTheDocument()
  })

  it('§8 sign-in 401: the server error text shows in an error box above the submit button', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        errorResponse(401, 'Invalid email or password.'),
      ),
    )
    const { user } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'wrong-password')
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('Invalid email or password.')
    expect(
      alert.compareDocumentPosition(screen.getByRole('button', { name: 'Sign in' })) &
        Node.DOCUMENT_POSITION_FOLLOWING,
    ).toBeTruthy()
  })

  it('issue 26 sign-in 403: a person whose employer ended their access is told why, and stays signed out', async () => {
    const ended =
      'Your access through Acme Corp has ended. If this is a mistake, please contact your employer.'
    server.use(http.post(apiUrl('/api/v1/users/sign_in'), () => errorResponse(403, ended)))
    const { user } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'secret123')
    expect(await screen.findByRole('alert')).toHaveTextContent(ended)
    expect(session.get().token).toBeNull()
  })

  it('§4 sign-in: success stores the session and goes to the Dashboard when no return target is set', async () => {
    server.use(signInOk(), currentUserOk(makeUser()))
    const { user, router } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'secret123')
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(session.isAuthenticated()).toBe(true)
    expect(session.get().token).toBe('signed-in-token')
  })

  it('§2 access rules: after sign-in the user goes to the remembered return target', async () => {
    server.use(signInOk())
    returnTarget.save('/requests/42')
    const { user, router } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'secret123')
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/42'))
  })

  it('§4 sign-in: MFA enrolment available goes to MfaEnrollment', async () => {
    server.use(signInOk({ mfaRequiresVerification: true }))
    const { user, router } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'secret123')
    await waitFor(() => expect(router.state.location.pathname).toBe('/mfa-enrollment'))
  })

  it('§4 sign-in: MFA required shows the code form; a valid code goes to the landing', async () => {
    let otp: unknown
    server.use(
      signInOk({ mfaRequired: true }),
      mfaMethodsOk(['sms']),
      currentUserOk(makeUser()),
      http.post(apiUrl('/api/v1/mfa/verify'), async ({ request }) => {
        otp = ((await request.json()) as { otp: string }).otp
        return HttpResponse.json({ success: true }, { headers: { 'mfa-token': 'mfa-123' } })
      }),
    )
    const { user, router } = renderSignIn()
    await fillAndSubmit(user, 'jane@example.com', 'secret123')
    const code = await screen.findByLabelText('Verification code')
    await user.type(code, '123456')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(otp).toBe('123456')
    expect(session.get().mfaToken).toBe('mfa-123')
    expect(session.get().mfaRequired).toBe(false)
  })

  it('§4 MFA step: the SMS step names the phone by the last digits the server gives', async () => {
    signInSession()
    session.setMfaRequired(true)
    server.use(mfaMethodsOk(['sms'], '•••-•••-••42'))
    renderSignIn()
    expect(await screen.findByRole('heading', { name: 'Check your phone' })).toBeInTheDocument()
    expect(
      screen.getByText(
        'We sent a 6-digit verification code to the phone number ending in 42. Enter it below to finish signing in.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByLabelText('Verification code')).toBeInTheDocument()
  })

  it('§4 MFA step: without a phone hint the SMS step names the phone on the account', async () => {
    signInSession()
    session.setMfaRequired(true)
    server.use(mfaMethodsOk(['sms'], ''))
    renderSignIn()
    expect(
      await screen.findByText(
        'We sent a 6-digit verification code to the phone number on your account. Enter it below to finish signing in.',
      ),
    ).toBeInTheDocument()
  })

  it('§5 MFA code: empty and malformed codes show the spec messages', async () => {
    signInSession()
    session.setMfaRequired(true)
    server.use(mfaMethodsOk(['sms']))
    const { user } = renderSignIn()
    await user.click(await screen.findByRole('button', { name: 'Verify' }))
    expect(
      await screen.findByText('Please enter the verification code sent to your phone number'),
    ).toBeInTheDocument()
    await user.type(screen.getByLabelText('Verification code'), '12a45')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByText('Please enter a valid verification code')).toBeInTheDocument()
  })

  it('§8 MFA verify failure: the server error shows in the error box', async () => {
    signInSession()
    session.setMfaRequired(true)
    server.use(
      mfaMethodsOk(['sms']),
      http.post(apiUrl('/api/v1/mfa/verify'), () =>
        errorResponse(401, 'Invalid verification code.'),
      ),
    )
    const { user } = renderSignIn()
    await user.type(await screen.findByLabelText('Verification code'), '654321')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid verification code.')
  })

  it('Issue 13 MFA step: the authenticator app first; "Send a text instead" texts a code', async () => {
    signInSession()
    session.setMfaRequired(true)
    const bodies: unknown[] = []
    let sent = 0
    server.use(
      mfaMethodsOk(['totp', 'sms', 'recovery'], '•••-•••-••67'),
      currentUserOk(makeUser()),
      http.post(apiUrl('/api/v1/mfa/send-otp'), () => {
        sent += 1
        return HttpResponse.json({ success: true })
      }),
      http.post(apiUrl('/api/v1/mfa/verify'), async ({ request }) => {
        bodies.push(await request.json())
        return HttpResponse.json({ success: true }, { headers: { 'mfa-token': 'mfa-9' } })
      }),
    )
    const { user, router } = renderSignIn()
    expect(
      await screen.findByRole('heading', { name: 'Enter your authenticator code' }),
    ).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Resend code' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Use a recovery code' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Send a text instead' }))
    expect(await screen.findByRole('heading', { name: 'Check your phone' })).toBeInTheDocument()
    expect(sent).toBe(1)
    await user.click(screen.getByRole('button', { name: 'Use your authenticator app instead' }))
    await user.type(await screen.findByLabelText('Code from your authenticator app'), '246810')
    await user.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(bodies).toEqual([{ otp: '246810', method: 'totp' }])
    expect(session.get().mfaToken).toBe('mfa-9')
  })

  it("§2 sign-in: 'Resend code' requests a new code and confirms with a toast", async () => {
    signInSession()
    session.setMfaRequired(true)
    let sent = 0
    server.use(
      mfaMethodsOk(['sms']),
      http.post(apiUrl('/api/v1/mfa/send-otp'), () => {
        sent += 1
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderSignIn()
    await user.click(await screen.findByRole('button', { name: 'Resend code' }))
    expect(
      await screen.findByText('A new verification code has been sent to your phone number.'),
    ).toBeInTheDocument()
    expect(sent).toBe(1)
  })

  it('§2 sign-in: links to sign up, forgot password and support by email', () => {
    renderSignIn()
    expect(screen.getByRole('link', { name: 'Sign up' })).toHaveAttribute('href', '/sign-up')
    expect(screen.getByRole('link', { name: 'Forgot password?' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
  })
})
