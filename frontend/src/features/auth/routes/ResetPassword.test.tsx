import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { errorResponse, resetLinkCheck } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import ResetPassword from './ResetPassword'

const INVALID_LINK = 'This password reset link is invalid or has expired. Please request a new one.'

function renderResetPage() {
  return renderWithProviders(<ResetPassword />, {
    route: '/reset-password/tok-123',
    path: '/reset-password/:resetToken',
  })
}

/** The page once its link was checked and found usable: the form. */
async function renderReset() {
  const rendered = renderResetPage()
  await screen.findByLabelText('New password')
  return rendered
}

describe('ResetPassword', () => {
  beforeEach(() => server.use(resetLinkCheck()))

  it("§5 reset password: empty fields show 'Please enter a new password' and 'Please confirm your new password'", async () => {
    const { user } = await renderReset()
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByText('Please enter a new password')).toBeInTheDocument()
    expect(screen.getByText('Please confirm your new password')).toBeInTheDocument()
  })

  it("§5 reset password: different passwords show 'Passwords do not match' on the confirmation field", async () => {
    const { user } = await renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret124')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument()
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('New password')).not.toHaveAttribute('aria-invalid')
  })

  it('§5 reset password: under 6 characters is not a valid password', async () => {
    const { user } = await renderReset()
    await user.type(screen.getByLabelText('New password'), 'abc')
    await user.type(screen.getByLabelText('Confirm new password'), 'abc')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findAllByText('Please enter a valid password')).toHaveLength(2)
  })

  it('§2 reset password: success toasts the spec text and goes to SignIn', async () => {
    let sent: unknown
    server.use(
      http.put(apiUrl('/api/v1/users/password'), async ({ request }) => {
        sent = await request.json()
        return HttpResponse.json({ success: true })
      }),
    )
    const { user, router } = await renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret123')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    const toast = await screen.findByText(
      'Your password has been updated successfully. You can sign in with your new password now.',
    )
    expect(toast.closest('li')).toHaveAttribute('data-severity', 'success')
    expect(sent).toEqual({
      reset_password_token: 'tok-123',
      password: 'secret123',
      password_confirmation: 'secret123',
    })
  })

  it('§8 reset submit failure: the server error shows in the error box', async () => {
    server.use(
      http.put(apiUrl('/api/v1/users/password'), () =>
        errorResponse(422, 'Reset password token is invalid.'),
      ),
    )
    const { user } = await renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret123')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Reset password token is invalid.')
  })

  it('§2 reset password: the link is checked on load, without using it up, before the form shows', async () => {
    const checked: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/users/password/check'), async ({ request }) => {
        checked.push(await request.json())
        return HttpResponse.json({ success: true })
      }),
    )
    renderResetPage()
    expect(screen.getByText('Checking your reset link…', { selector: 'p' })).toBeInTheDocument()
    expect(await screen.findByLabelText('New password')).toBeInTheDocument()
    expect(checked).toEqual([{ reset_password_token: 'tok-123' }])
  })

  it('§8 reset: a used or expired link shows the invalid-link state on load, with no form', async () => {
    server.use(resetLinkCheck(false))
    renderResetPage()
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This reset link can’t be used' }),
    ).toBeInTheDocument()
    expect(screen.getByText(INVALID_LINK)).toBeInTheDocument()
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Request a new link' })).toHaveAttribute(
      'href',
      '/forgot-password',
    )
    expect(screen.getByRole('link', { name: 'Return to sign in' })).toHaveAttribute(
      'href',
      '/sign-in',
    )
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
  })

  it('§8 reset: when the check cannot answer (too many attempts) the form shows and its submit says', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/password/check'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    renderResetPage()
    expect(await screen.findByLabelText('New password')).toBeInTheDocument()
  })

  it('§8 reset: a link that expires while the page is open shows the invalid-link state on submit', async () => {
    server.use(
      http.put(apiUrl('/api/v1/users/password'), () =>
        errorResponse(422, INVALID_LINK, { reset_password_token: [INVALID_LINK] }),
      ),
    )
    const { user } = await renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret123')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(
      await screen.findByRole('heading', { name: 'This reset link can’t be used' }),
    ).toBeInTheDocument()
    expect(screen.queryByLabelText('New password')).not.toBeInTheDocument()
  })
})
