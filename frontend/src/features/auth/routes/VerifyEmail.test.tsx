import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { StrictMode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import VerifyEmail from './VerifyEmail'

const INVALID =
  'This confirmation link is invalid, already used or expired. Sign in to send yourself a new one.'

function renderVerify() {
  return renderWithProviders(
    <StrictMode>
      <VerifyEmail />
    </StrictMode>,
    { route: '/verify-email/tok:en.1', path: '/verify-email/:verificationToken' },
  )
}

describe('VerifyEmail', () => {
  it('Hardening 9: shows the waiting state, then success with a link to the benefits; calls once in StrictMode', async () => {
    const tokens: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/users/verify_email'), async ({ request }) => {
        tokens.push(((await request.json()) as { token: string }).token)
        return HttpResponse.json({ success: true })
      }),
    )
    const { queryClient } = renderVerify()
    const invalidate = vi.spyOn(queryClient, 'invalidateQueries')
    expect(
      screen.getByRole('status', { name: 'Confirming your email address…' }),
    ).toBeInTheDocument()
    expect(await screen.findByText('Your email address is confirmed.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See your benefits' })).toHaveAttribute(
      'href',
      '/benefits-and-offers',
    )
    expect(tokens).toEqual(['tok:en.1'])
    expect(invalidate).toHaveBeenCalled()
  })

  it('Hardening 9: a used or expired link shows the server message and a way back; not reported', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.post(apiUrl('/api/v1/users/verify_email'), () =>
        errorResponse(422, INVALID, { token: [INVALID] }),
      ),
    )
    renderVerify()
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t confirm your email address' }),
    ).toBeInTheDocument()
    expect(screen.getByText(INVALID)).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Return to sign in' })).toHaveAttribute(
      'href',
      '/sign-in',
    )
    expect(consoleError).not.toHaveBeenCalled()
  })

  it('Hardening 9: other server errors are logged and show the failure state', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.post(apiUrl('/api/v1/users/verify_email'), () =>
        errorResponse(500, 'Database unavailable'),
      ),
    )
    renderVerify()
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t confirm your email address' }),
    ).toBeInTheDocument()
    expect(consoleError).toHaveBeenCalledWith('Database unavailable')
  })
})
