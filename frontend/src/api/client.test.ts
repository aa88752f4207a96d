import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { resetAnalyticsIdentity } from '@/lib/analytics'
import { returnTarget, session } from '@/lib/session'
import { createGate } from '@/test/gate'
import { inAnHour } from '@/test/handlers'
import { apiUrl, server } from '@/test/server'
import { api, MFA_AUTHENTICATION_REQUIRED, setForcedSignOutHandler } from './client'

vi.mock('@/lib/analytics', () => ({
  resetAnalyticsIdentity: vi.fn(),
  setAnalyticsIdentity: vi.fn(),
  trackPageView: vi.fn(),
}))

const forcedSignOut = vi.fn()

function signedIn({ mfaToken }: { mfaToken?: string } = {}) {
  session.start('tok-1', inAnHour())
  if (mfaToken) session.setMfaToken(mfaToken)
}

function answer401(path: string, error = 'Invalid token') {
  return http.get(apiUrl(path), () => HttpResponse.json({ success: false, error }, { status: 401 }))
}

/** A 401 to GET `path` that waits until `answer()` is called: a request still on its way. */
function late401(path: string, error: string) {
  const answered = createGate()
  server.use(
    http.get(apiUrl(path), async () => {
      await answered.opened
      return HttpResponse.json({ success: false, error }, { status: 401 })
    }),
  )
  return answered.open
}

describe('§4/§7 API client', () => {
  beforeEach(() => {
    window.localStorage.clear()
    window.sessionStorage.clear()
    session.refresh()
    setForcedSignOutHandler(forcedSignOut)
    window.history.replaceState(null, '', '/requests/7?tab=Completed')
  })
  afterEach(() => {
    forcedSignOut.mockReset()
    vi.mocked(resetAnalyticsIdentity).mockReset()
  })

  it('§7: calls carry the authorization header, and the mfa-token header once MFA is verified', async () => {
    const seen: Array<[string | null, string | null]> = []
    server.use(
      http.get(apiUrl('/api/v1/users/current'), ({ request }) => {
        seen.push([request.headers.get('Authorization'), request.headers.get('mfa-token')])
        return HttpResponse.json({})
      }),
    )
    signedIn()
    await api.GET('/api/v1/users/current')
    session.setMfaToken('mfa-9')
    await api.GET('/api/v1/users/current')
    expect(seen).toEqual([
      ['Bearer tok-1', null],
      ['Bearer tok-1', 'mfa-9'],
    ])
  })

  it('§4: any 401 clears the session and the analytics identity and goes to sign-in with the return target saved', async () => {
    server.use(answer401('/api/v1/users/current'))
    signedIn({ mfaToken: 'mfa-9' })
    await api.GET('/api/v1/users/current')
    expect(session.get().token).toBeNull()
    expect(session.get().mfaToken).toBeNull()
    expect(resetAnalyticsIdentity).toHaveBeenCalledOnce()
    expect(forcedSignOut).toHaveBeenCalledOnce()
    expect(returnTarget.peek()).toBe('/requests/7?tab=Completed')
  })

  it('§4: a late 401 to a request of a session that has ended (signed out, or another signed in since) changes nothing', async () => {
    const answer = late401('/api/v1/users/current', 'Invalid token')
    signedIn()
    const afterSignOut = api.GET('/api/v1/users/current')
    session.clear() // signed out while the request was on its way
    answer()
    await afterSignOut
    expect(forcedSignOut).not.toHaveBeenCalled()
    expect(returnTarget.peek()).toBeNull()

    signedIn()
    const oldSession = api.GET('/api/v1/users/current')
    session.start('tok-2', inAnHour()) // someone signed in again meanwhile
    await oldSession
    expect(session.get().token).toBe('tok-2')
    expect(forcedSignOut).not.toHaveBeenCalled()
    expect(returnTarget.peek()).toBeNull()
  })

  it("§4: a 401 with 'MFA authentication required' sets the MFA-required flag and does not sign out", async () => {
    server.use(answer401('/api/v1/users/current', MFA_AUTHENTICATION_REQUIRED))
    signedIn()
    await api.GET('/api/v1/users/current')
    expect(session.get().mfaRequired).toBe(true)
    expect(session.get().token).toBe('tok-1')
    expect(forcedSignOut).not.toHaveBeenCalled()
    expect(resetAnalyticsIdentity).not.toHaveBeenCalled()
  })

  it("§4: an 'MFA authentication required' 401 to a request sent before the session's MFA token was stored (a first factor added meanwhile) changes nothing", async () => {
    const answer = late401('/api/v1/users/current', MFA_AUTHENTICATION_REQUIRED)
    signedIn()
    const late = api.GET('/api/v1/users/current')
    session.setMfaToken('mfa-9')
    answer()
    await late
    expect(session.get().mfaRequired).toBe(false)
    expect(session.get().mfaToken).toBe('mfa-9')
    expect(forcedSignOut).not.toHaveBeenCalled()
  })

  it('§4: a 401 from the MFA-verify call does not sign out', async () => {
    server.use(
      http.post(apiUrl('/api/v1/mfa/verify'), () =>
        HttpResponse.json({ success: false, error: 'Invalid code' }, { status: 401 }),
      ),
    )
    signedIn()
    await api.POST('/api/v1/mfa/verify', { body: { otp: '123456' } })
    expect(session.get().token).toBe('tok-1')
    expect(forcedSignOut).not.toHaveBeenCalled()
  })

  it('§4: a 401 from sign-in itself (wrong password) does not count as a forced sign-out', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        HttpResponse.json({ success: false, error: 'Invalid email or password.' }, { status: 401 }),
      ),
    )
    await api.POST('/api/v1/users/sign_in', { body: { user: { email: 'a@b.co', password: 'x' } } })
    expect(forcedSignOut).not.toHaveBeenCalled()
    expect(returnTarget.peek()).toBeNull()
  })

  it('§4: a 401 that comes before the app can navigate (the first screen loading) goes to sign-in once the app can navigate', async () => {
    vi.resetModules()
    const fresh = await import('./client')
    const freshSession = (await import('@/lib/session')).session
    server.use(answer401('/api/v1/users/current'))
    freshSession.start('tok-1', inAnHour())
    await fresh.api.GET('/api/v1/users/current')
    expect(freshSession.get().token).toBeNull()
    const navigate = vi.fn()
    fresh.setForcedSignOutHandler(navigate)
    expect(navigate).toHaveBeenCalledOnce()
    fresh.setForcedSignOutHandler(navigate)
    expect(navigate).toHaveBeenCalledOnce()
  })
})
