import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { REFRESH_USER_FAILED, UnauthorizedError } from '@/lib/currentUser'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { session } from '@/lib/session'
import { inAnHour } from '@/test/handlers'
import { createTestQueryClient } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { signUp } from './account'
import { signIn } from './auth'
import { MFA_MESSAGES, sendOtp, verifyMfa } from './mfa'

const SIGN_UP = {
  email: 'jane@example.com',
  password: 'secret123',
  name: 'Jane',
  last_name: 'Doe',
  company_slug: 'acme',
}

describe('§8 error catalogue: account call fallbacks', () => {
  beforeEach(() => {
    window.localStorage.clear()
    session.refresh()
  })

  it("§8: another sign-in error is thrown as 'Sign in error'", async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_in'), () => HttpResponse.json({}, { status: 500 })),
    )
    await expect(signIn('jane@example.com', 'secret123')).rejects.toThrow('Sign in error')
  })

  it("§8: a sign-in without the authorization header is 'No authorization token received'", async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        HttpResponse.json({
          success: true,
          expires_at: inAnHour(),
          mfa_required: false,
          mfa_requires_verification: false,
        }),
      ),
    )
    expect(await signIn('jane@example.com', 'secret123')).toEqual({
      success: false,
      error: 'No authorization token received',
    })
    expect(session.get().token).toBeNull()
  })

  it("§8: another sign-up status is thrown as 'Sign up error'", async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () => HttpResponse.json({}, { status: 500 })),
    )
    await expect(signUp(SIGN_UP)).rejects.toThrow('Sign up error')
  })

  it("§8: a verified code without the mfa-token header is 'No MFA verification token received'", async () => {
    server.use(http.post(apiUrl('/api/v1/mfa/verify'), () => HttpResponse.json({ success: true })))
    expect(await verifyMfa('123456')).toEqual({
      success: false,
      error: 'No MFA verification token received',
    })
    expect(session.get().mfaToken).toBeNull()
  })

  it('§4: a verified code with the mfa-token header stores it and clears the MFA flags', async () => {
    session.setMfaRequired(true)
    server.use(
      http.post(apiUrl('/api/v1/mfa/verify'), () =>
        HttpResponse.json({ success: true }, { headers: { 'mfa-token': 'mfa-1' } }),
      ),
    )
    expect(await verifyMfa('123456')).toEqual({ success: true })
    expect(session.get().mfaToken).toBe('mfa-1')
    expect(session.get().mfaRequired).toBe(false)
  })

  it("§8: a send-OTP failure shows the server error, else 'Unable to request MFA token at this time.'", async () => {
    server.use(
      http.post(apiUrl('/api/v1/mfa/send-otp'), () =>
        HttpResponse.json({ success: false, error: 'Too many codes' }, { status: 429 }),
      ),
    )
    expect(await sendOtp()).toEqual({ success: false, error: 'Too many codes' })
    server.use(
      http.post(apiUrl('/api/v1/mfa/send-otp'), () =>
        HttpResponse.json({}, { status: 503, statusText: 'Service Unavailable' }),
      ),
    )
    expect(await sendOtp()).toEqual({ success: false, error: MFA_MESSAGES.sendOtpFallback })
    expect(MFA_MESSAGES.sendOtpFallback).toBe('Unable to request MFA token at this time.')
  })

  it("§8: a current-user refresh failure is 'Failed to refresh current user state' unless 401", async () => {
    server.use(
      http.get(apiUrl('/api/v1/users/current'), () => HttpResponse.json({}, { status: 500 })),
    )
    const client = createTestQueryClient()
    await expect(client.fetchQuery(currentUserQuery)).rejects.toThrow(
      'Failed to refresh current user state',
    )
    expect(REFRESH_USER_FAILED).toBe('Failed to refresh current user state')
    server.use(
      http.get(apiUrl('/api/v1/users/current'), () =>
        HttpResponse.json({ success: false, error: 'Invalid token' }, { status: 401 }),
      ),
    )
    await expect(createTestQueryClient().fetchQuery(currentUserQuery)).rejects.toBeInstanceOf(
      UnauthorizedError,
    )
  })
})
