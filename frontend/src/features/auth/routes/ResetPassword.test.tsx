import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import ResetPassword from './ResetPassword'

function renderReset() {
  return renderWithProviders(<ResetPassword />, {
    route: '/reset-password/tok-123',
    path: '/reset-password/:resetToken',
  })
}

describe('ResetPassword', () => {
  it("§5 reset password: empty fields show 'Please enter a new password' and 'Please confirm your new password'", async () => {
    const { user } = renderReset()
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByText('Please enter a new password')).toBeInTheDocument()
    expect(screen.getByText('Please confirm your new password')).toBeInTheDocument()
  })

  it("§5 reset password: different passwords show 'Passwords do not match' on the confirmation field", async () => {
    const { user } = renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret124')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByText('Passwords do not match')).toBeInTheDocument()
    expect(screen.getByLabelText('Confirm new password')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.getByLabelText('New password')).not.toHaveAttribute('aria-invalid')
  })

  it('§5 reset password: under 6 characters is not a valid password', async () => {
    const { user } = renderReset()
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
    const { user, router } = renderReset()
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
    const { user } = renderReset()
    await user.type(screen.getByLabelText('New password'), 'secret123')
    await user.type(screen.getByLabelText('Confirm new password'), 'secret123')
    await user.click(screen.getByRole('button', { name: 'Update password' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Reset password token is invalid.')
  })
})
