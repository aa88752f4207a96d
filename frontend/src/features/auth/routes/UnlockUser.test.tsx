import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { StrictMode } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import UnlockUser from './UnlockUser'

function renderUnlock() {
  return renderWithProviders(
    <StrictMode>
      <UnlockUser />
    </StrictMode>,
    { route: '/unlock/unlock-abc', path: '/unlock/:unlockToken' },
  )
}

describe('UnlockUser', () => {
  it('§4 unlock: shows the waiting state, then success with a link to sign in; calls once in StrictMode', async () => {
    const tokens: Array<string | null> = []
    server.use(
      http.get(apiUrl('/api/v1/users/unlock'), ({ request }) => {
        tokens.push(new URL(request.url).searchParams.get('unlock_token'))
        return HttpResponse.json({ success: true })
      }),
    )
    renderUnlock()
    expect(screen.getByRole('status', { name: 'Unlocking your account…' })).toBeInTheDocument()
    expect(await screen.findByText('Your account has been unlocked.')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in')
    expect(tokens).toEqual(['unlock-abc'])
  })

  it("§8 unlock failure: the page text and a support link; 'Invalid unlock token.' is not reported", async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.get(apiUrl('/api/v1/users/unlock'), () => errorResponse(422, 'Invalid unlock token.')),
    )
    renderUnlock()
    expect(
      await screen.findByText(
        'We were unable to unlock your account. Please check the link you used to unlock your account and try again.',
      ),
    ).toBeInTheDocument()
    // A link used twice, or a made-up one: the heading claims nothing about the account's state.
    expect(
      screen.getByRole('heading', { name: 'We couldn’t unlock your account' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
    expect(consoleError).not.toHaveBeenCalled()
  })

  it('§8 unlock failure: other server errors are logged', async () => {
    const consoleError = vi.spyOn(console, 'error').mockImplementation(() => {})
    server.use(
      http.get(apiUrl('/api/v1/users/unlock'), () => errorResponse(500, 'Database unavailable')),
    )
    renderUnlock()
    expect(await screen.findByText(/We were unable to unlock your account/)).toBeInTheDocument()
    expect(consoleError).toHaveBeenCalledWith('Database unavailable')
  })
})
