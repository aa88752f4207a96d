import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { resetAnalyticsIdentity, setAnalyticsIdentity } from '@/lib/analytics'
import { currentUserOk } from '@/test/handlers'
import { createTestQueryClient, makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { currentUserQuery, useSignOut } from './currentUserQuery'

vi.mock('@/lib/analytics', () => ({
  resetAnalyticsIdentity: vi.fn(),
  setAnalyticsIdentity: vi.fn(),
  trackPageView: vi.fn(),
}))

function SignOutButton() {
  const { onSignOut } = useSignOut()
  return (
    <button type="button" onClick={onSignOut}>
      Sign Out
    </button>
  )
}

describe('§4 analytics identity', () => {
  afterEach(() => vi.clearAllMocks())

  it('§4: once signed in, analytics knows the user by their external id', async () => {
    const user = makeUser({ external_id: 'usr_ext_77' })
    server.use(currentUserOk(user))
    await createTestQueryClient().fetchQuery(currentUserQuery)
    expect(setAnalyticsIdentity).toHaveBeenCalledWith('usr_ext_77')
  })

  it('§4: signing out clears the analytics identity', async () => {
    signInSession()
    server.use(
      http.delete(apiUrl('/api/v1/users/sign_out'), () => HttpResponse.json({ success: true })),
    )
    const { user, router } = renderWithProviders(<SignOutButton />, { route: '/account' })
    await user.click(screen.getByRole('button', { name: 'Sign Out' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/sign-in'))
    expect(resetAnalyticsIdentity).toHaveBeenCalledOnce()
  })
})
