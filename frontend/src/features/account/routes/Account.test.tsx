import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { returnTarget, session } from '@/lib/session'
import { currentUserOk, errorResponse, notificationsHandlers } from '@/test/handlers'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import Account from './Account'

function renderAccount(user = makeUser()) {
  return renderWithProviders(<Account />, { route: '/account', user })
}

describe('Account', () => {
  beforeEach(() =>
    server.use(
      factorsOk([]),
      http.get(apiUrl('/api/v1/users/onboarding'), () => HttpResponse.json({ answers: [] })),
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status: 'none' })),
      http.get(apiUrl('/api/v1/users/devices'), () => HttpResponse.json({ devices: [] })),
      ...notificationsHandlers(),
    ),
  )

  it("§2 account: 'Account Settings' with the owner's name and email", () => {
    renderAccount(makeUser({ full_name: 'Jane Q Doe', email: 'jane@example.com' }))
    expect(screen.getByRole('heading', { level: 1, name: 'Account Settings' })).toBeInTheDocument()
    const owner = within(screen.getByRole('region', { name: 'Your account' }))
    expect(owner.getByText('Jane Q Doe')).toBeInTheDocument()
    expect(owner.getByText('jane@example.com')).toBeInTheDocument()
  })

  it('Issue 29 account: contact details that failed to load say so with Retry, and cannot be edited empty', async () => {
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/users/onboarding'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Internal' }, { status: 500 })
          : HttpResponse.json({ answers: [{ answer_id: 104, value: '5550001111' }] }),
      ),
    )
    const { user } = renderAccount()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load your contact details.')
    // Neither "Not given" for what may be stored, nor an empty form whose save would erase it.
    expect(screen.queryByText('Not given')).toBeNull()
    expect(screen.queryByRole('button', { name: /Edit Contact details/i })).toBeNull()
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByText('(555) 000-1111')).toBeInTheDocument()
  })

  it('§8 failed loads: each Account section that could not load says what, in words, with Retry', async () => {
    const failing = () =>
      HttpResponse.json({ success: false, error: 'server exploded' }, { status: 500 })
    server.use(
      http.get(apiUrl('/api/v1/mfa/factors'), failing),
      http.get(apiUrl('/api/v1/notifications/preferences'), failing),
      http.get(apiUrl('/api/v1/users/data_export'), failing),
      http.get(apiUrl('/api/v1/users/devices'), failing),
    )
    renderAccount()
    for (const text of [
      'We couldn’t load your sign-in methods.',
      'We couldn’t load your signed-in devices.',
      'We couldn’t load your notification choices.',
      'We couldn’t check whether a copy of your data is being prepared.',
    ]) {
      const alert = (await screen.findByText(text)).closest('[role="alert"]') as HTMLElement
      expect(within(alert).getByRole('button', { name: 'Retry' })).toBeInTheDocument()
    }
    expect(screen.queryByText('server exploded')).toBeNull()
    // Adding a sign-in method waits until the list of those there are is known.
    expect(screen.queryByRole('button', { name: 'Add an authenticator app' })).toBeNull()
  })

  it('Issue 29 account: the name is edited in place, checked by the §5 sign-up rules, and saved', async () => {
    let sent: unknown
    server.use(
      http.put(apiUrl('/api/v1/users/profile'), async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json(
          makeUser({ full_name: 'Jane King', first_name: 'Jane', last_name: 'King' }),
        )
      }),
    )
    const { user } = renderAccount(
      makeUser({ full_name: 'Jane Doe', first_name: 'Jane', last_name: 'Doe' }),
    )
    const details = within(screen.getByRole('region', { name: 'Your details' }))
    await user.click(details.getByRole('button', { name: 'Edit', description: 'Name' }))
    const last = details.getByLabelText('Last name')
    expect(details.getByLabelText('First name')).toHaveFocus()
    await user.clear(last)
    await user.click(details.getByRole('button', { name: 'Save changes' }))
    expect(await details.findByText('Please enter your last name')).toBeInTheDocument()
    expect(last).toHaveFocus()
    await user.type(last, ' King ')
    await user.click(details.getByRole('button', { name: 'Save changes' }))
    expect(await screen.findByText('Your name is saved.')).toBeInTheDocument()
    expect(sent).toEqual({ first_name: 'Jane', last_name: 'King' })
    expect(details.getByRole('button', { name: 'Edit', description: 'Name' })).toHaveFocus()
  })

  it('Issue 29 account: a new password needs the current one and a matching confirmation (§5)', async () => {
    const { user } = renderAccount()
    const details = within(screen.getByRole('region', { name: 'Your details' }))
    await user.click(details.getByRole('button', { name: 'Change', description: 'Password' }))
    await user.type(details.getByLabelText(/^New password/), 'new-secret-1')
    await user.type(details.getByLabelText(/^Confirm new password/), 'new-secret-2')
    await user.click(details.getByRole('button', { name: 'Change password' }))
    expect(await details.findByText('Please enter your password')).toBeInTheDocument()
    expect(details.getByText('Passwords do not match')).toBeInTheDocument()
    expect(details.getByLabelText(/^Current password/)).toHaveFocus()
  })

  it('§8 form errors, account: a new password the server refuses shows on its field, which takes the focus', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/password/change'), () =>
        errorResponse(422, 'This password is too common.', {
          new_password: ['This password is too common.'],
        }),
      ),
    )
    const { user } = renderAccount()
    const details = within(screen.getByRole('region', { name: 'Your details' }))
    await user.click(details.getByRole('button', { name: 'Change', description: 'Password' }))
    await user.type(details.getByLabelText(/^Current password/), 'old-secret-1')
    await user.type(details.getByLabelText(/^New password/), 'password1')
    await user.type(details.getByLabelText(/^Confirm new password/), 'password1')
    await user.click(details.getByRole('button', { name: 'Change password' }))
    expect(await details.findByText('This password is too common.')).toBeInTheDocument()
    expect(details.getByLabelText(/^New password/)).toHaveFocus()
  })

  it('Issue 29 account: after a password change the signed-in devices no longer list the devices it signed out', async () => {
    const now = new Date().toISOString()
    const laptop = { id: 3, device: 'Chrome on Windows', signed_in_at: now, current: true }
    const phone = { id: 2, device: 'Mobile Safari on iPhone', signed_in_at: now, current: false }
    let devices = [laptop, phone]
    server.use(
      http.get(apiUrl('/api/v1/users/devices'), () => HttpResponse.json({ devices })),
      http.post(apiUrl('/api/v1/users/password/change'), () => {
        devices = [laptop]
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderAccount()
    const signedIn = within(screen.getByRole('region', { name: 'Signed-in devices' }))
    expect(await signedIn.findByText('Mobile Safari on iPhone')).toBeInTheDocument()
    const details = within(screen.getByRole('region', { name: 'Your details' }))
    await user.click(details.getByRole('button', { name: 'Change', description: 'Password' }))
    await user.type(details.getByLabelText(/^Current password/), 'old-secret-1')
    await user.type(details.getByLabelText(/^New password/), 'new-secret-1')
    await user.type(details.getByLabelText(/^Confirm new password/), 'new-secret-1')
    await user.click(details.getByRole('button', { name: 'Change password' }))
    expect(
      await screen.findByText('Your password is changed. Other devices were signed out.'),
    ).toBeInTheDocument()
    await waitFor(() => expect(signedIn.queryByText('Mobile Safari on iPhone')).toBeNull())
    expect(signedIn.getByText('Only this device is signed in to your account.')).toBeInTheDocument()
  })

  it('Issue 29 account: an email change waiting for its link says where it went, and can be cancelled', async () => {
    let cancelled = false
    server.use(
      http.delete(apiUrl('/api/v1/users/email_change'), () => {
        cancelled = true
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderAccount(
      makeUser({ email: 'jane@example.com', pending_email: 'jane@new.example' }),
    )
    const status = screen.getByRole('status', { name: '' })
    expect(status).toHaveTextContent('we sent a link to jane@new.example')
    await user.click(within(status).getByRole('button', { name: 'Cancel change' }))
    await waitFor(() => expect(cancelled).toBe(true))
  })

  it('Issue 29 account: cancelling the email change gives the focus to the email’s Change button', async () => {
    server.use(
      http.delete(apiUrl('/api/v1/users/email_change'), () => HttpResponse.json({ success: true })),
      currentUserOk(makeUser({ email: 'jane@example.com', pending_email: '' })),
    )
    const { user } = renderAccount(
      makeUser({ email: 'jane@example.com', pending_email: 'jane@new.example' }),
    )
    const status = screen.getByRole('status', { name: '' })
    await user.click(within(status).getByRole('button', { name: 'Cancel change' }))
    // The notice and its button go once the user is read again (RequireAuth's, not here's).
    const details = within(screen.getByRole('region', { name: 'Your details' }))
    const change = details.getByRole('button', { name: 'Change', description: 'Email' })
    await waitFor(() => expect(change).toHaveFocus())
  })

  it('§8 failed calls, account: cancelling the email change when the network fails says so', async () => {
    server.use(http.delete(apiUrl('/api/v1/users/email_change'), () => HttpResponse.error()))
    const { user } = renderAccount(
      makeUser({ email: 'jane@example.com', pending_email: 'jane@new.example' }),
    )
    const status = screen.getByRole('status', { name: '' })
    await user.click(within(status).getByRole('button', { name: 'Cancel change' }))
    expect(await screen.findByText('An unexpected error occurred')).toBeInTheDocument()
    expect(within(status).getByRole('button', { name: 'Cancel change' })).toBeEnabled()
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

  it('Issue 13 Account: no factor yet offers a passkey, an authenticator app and text messages', async () => {
    server.use(factorsOk([]))
    const { user } = renderAccount(makeUser({ mfa_enabled: false, mfa_enrollment_available: true }))
    expect(await screen.findByText(/Add a second step to signing in/)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Add an authenticator app' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Add text messages' }))
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/mfa-enrollment'))
  })

  it('Issue 13 Account: a session signed in long ago confirms it is the person before adding a way to sign in', async () => {
    let confirmed: unknown
    let started = false
    server.use(
      factorsOk([], { add_needs_confirm: true }),
      http.post(apiUrl('/api/v1/mfa/confirm'), async ({ request }) => {
        confirmed = await request.json()
        return HttpResponse.json({ success: true })
      }),
      http.post(apiUrl('/api/v1/mfa/totp'), () => {
        started = true
        return HttpResponse.json({
          factor_id: 5,
          secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
          otpauth_uri: 'otpauth://totp/Concierge:jane?secret=JBSWY3DPEHPK3PXP',
          qr_data_uri: 'data:image/svg+xml;base64,PHN2Zy8+',
        })
      }),
    )
    const { user } = renderAccount(makeUser({ mfa_enabled: false, mfa_enrollment_available: true }))
    const addApp = await screen.findByRole('button', { name: 'Add an authenticator app' })
    await user.click(addApp)
    expect(
      screen.getByText('To add a sign-in method, please confirm it’s you first.'),
    ).toBeVisible()
    expect(started).toBe(false)
    expect(screen.getByLabelText(/Confirm with your password/)).toHaveFocus()
    await user.type(screen.getByLabelText(/Confirm with your password/), 'my-password')
    server.use(factorsOk([]))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(confirmed).toEqual({ password: 'my-password', code: '' }))
    const heading = await screen.findByRole('heading', { name: 'Add an authenticator app' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(started).toBe(true)
    await user.click(await screen.findByRole('button', { name: 'Cancel' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add an authenticator app' })).toHaveFocus(),
    )
  })

  it('Issue 13 Account: a page left open past the 15 minutes asks to confirm when adding is refused, then adds', async () => {
    const CONFIRM_FIRST = 'To add a sign-in method, please confirm it’s you first.'
    let confirmed = false
    server.use(
      factorsOk([], { add_needs_confirm: false }),
      http.post(apiUrl('/api/v1/mfa/confirm'), () => {
        confirmed = true
        return HttpResponse.json({ success: true })
      }),
      http.post(apiUrl('/api/v1/mfa/totp'), () =>
        confirmed
          ? HttpResponse.json({
              factor_id: 5,
              secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
              otpauth_uri: 'otpauth://totp/Concierge:jane?secret=JBSWY3DPEHPK3PXP',
              qr_data_uri: 'data:image/svg+xml;base64,PHN2Zy8+',
            })
          : errorResponse(403, CONFIRM_FIRST, { confirm: [CONFIRM_FIRST] }),
      ),
    )
    const { user } = renderAccount(makeUser({ mfa_enabled: false, mfa_enrollment_available: true }))
    await user.click(await screen.findByRole('button', { name: 'Add an authenticator app' }))
    expect(await screen.findByText(CONFIRM_FIRST)).toBeVisible()
    await waitFor(() => expect(screen.getByLabelText(/Confirm with your password/)).toHaveFocus())
    await user.type(screen.getByLabelText(/Confirm with your password/), 'my-password')
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByTestId('totp-setup')).toBeInTheDocument()
    expect(confirmed).toBe(true)
  })

  it('Issue 13 Account: an authenticator app whose setup could not start says why and can be cancelled', async () => {
    server.use(
      http.post(apiUrl('/api/v1/mfa/totp'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    const { user } = renderAccount(makeUser({ mfa_enabled: false, mfa_enrollment_available: true }))
    await user.click(await screen.findByRole('button', { name: 'Add an authenticator app' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts.')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Add an authenticator app' })).toHaveFocus(),
    )
  })

  it('Issue 13 Account: a name the server refuses is read out: its field takes the focus', async () => {
    const TOO_LONG = 'Please use at most 100 characters.'
    server.use(
      factorsOk([
        { id: '7', kind: 'totp', name: 'Authenticator app', created_at: null, last_used_at: null },
      ]),
      http.patch(apiUrl('/api/v1/mfa/factors/7'), () =>
        errorResponse(422, TOO_LONG, { name: [TOO_LONG] }),
      ),
    )
    const { user } = renderAccount(makeUser({ mfa_enabled: true }))
    await user.click(await screen.findByRole('button', { name: 'Rename Authenticator app' }))
    await user.click(screen.getByRole('button', { name: 'Save name' }))
    expect(await screen.findByText(TOO_LONG)).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveFocus())
    expect(screen.getByRole('textbox', { name: /^Name/ })).toHaveAccessibleDescription(
      expect.stringContaining(TOO_LONG),
    )
  })

  it('Issue 13 Account: lists the factors with when added and last used; removing asks for the password', async () => {
    const now = new Date()
    let removal: unknown
    server.use(
      factorsOk([
        {
          id: '7',
          kind: 'totp',
          name: 'Authenticator app',
          created_at: new Date(now.getTime() - 3 * 86_400_000).toISOString(),
          last_used_at: now.toISOString(),
        },
        {
          id: 'sms',
          kind: 'sms',
          name: 'Text message to •••-•••-••67',
          created_at: null,
          last_used_at: null,
        },
      ]),
      http.post(apiUrl('/api/v1/mfa/factors/7/remove'), async ({ request }) => {
        removal = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { user } = renderAccount(makeUser({ mfa_enabled: true }))
    expect(await screen.findByText(/Two-step verification is on/)).toBeInTheDocument()
    expect(screen.getByText('Added 3 days ago, last used just now')).toBeInTheDocument()
    expect(screen.getByText('Text message · Not used yet')).toBeInTheDocument()
    expect(screen.getByText('Recovery codes:')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Add text messages' })).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Remove Authenticator app' }))
    await user.click(screen.getByRole('button', { name: 'Remove' }))
    expect(await screen.findByText('Please enter your password')).toBeInTheDocument()
    await user.type(screen.getByLabelText(/Confirm with your password/), 'my-password')
    await user.click(screen.getByRole('button', { name: 'Remove' }))
    await waitFor(() => expect(removal).toEqual({ password: 'my-password', code: '' }))
  })
})

function factorsOk(factors: unknown[], extra: { add_needs_confirm?: boolean } = {}) {
  return http.get(apiUrl('/api/v1/mfa/factors'), () =>
    HttpResponse.json({
      factors,
      recovery_codes_left: 8,
      company_requires_mfa: false,
      add_needs_confirm: false,
      ...extra,
    }),
  )
}
