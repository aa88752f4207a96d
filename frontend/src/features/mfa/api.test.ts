import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { api, MFA_AUTHENTICATION_REQUIRED } from '@/api/client'
import { session } from '@/lib/session'
import { createGate } from '@/test/gate'
import { inAnHour } from '@/test/handlers'
import { apiUrl, server } from '@/test/server'
import { totpEnrolConfirm } from './api'

const CONFIRM = '/api/v1/mfa/totp/:factorId/confirm'

function mfaRequiredAnswer() {
  return http.get(apiUrl('/api/v1/users/current'), () =>
    HttpResponse.json({ success: false, error: MFA_AUTHENTICATION_REQUIRED }, { status: 401 }),
  )
}

/** The confirmation answers only when `release` is called. */
function heldConfirmation() {
  const released = createGate()
  server.use(
    http.post(apiUrl(CONFIRM), async () => {
      await released.opened
      return HttpResponse.json(
        { recovery_codes: ['aaaa-bbbb'] },
        { status: 201, headers: { 'mfa-token': 'mfa-new' } },
      )
    }),
  )
  return released.open
}

const nextTurn = () => new Promise((resolve) => setTimeout(resolve))

describe('§4 two-step verification: adding a first factor on the Account page', () => {
  beforeEach(() => {
    window.localStorage.clear()
    session.refresh()
    session.start('tok-1', inAnHour())
  })

  it("§4: an 'MFA authentication required' answer that comes while the first factor's confirmation is still on its way changes nothing (the recovery codes still show)", async () => {
    server.use(mfaRequiredAnswer())
    const release = heldConfirmation()
    const confirming = totpEnrolConfirm(5, '123456', '')
    await api.GET('/api/v1/users/current')
    expect(session.get().mfaRequired).toBe(false)

    release()
    const result = await confirming
    expect(result).toEqual({
      ok: true,
      value: { recoveryCodes: ['aaaa-bbbb'], mfaToken: 'mfa-new' },
    })
    if (result.ok && result.value.mfaToken) session.setMfaToken(result.value.mfaToken)
    expect(session.get()).toMatchObject({ mfaRequired: false, mfaToken: 'mfa-new' })
  })

  it("§4: once the confirmation has answered, an 'MFA authentication required' answer counts again", async () => {
    server.use(
      mfaRequiredAnswer(),
      http.post(apiUrl(CONFIRM), () =>
        HttpResponse.json({ success: false, error: 'Invalid code' }, { status: 422 }),
      ),
    )
    expect((await totpEnrolConfirm(5, '000000', '')).ok).toBe(false)
    await nextTurn()
    await api.GET('/api/v1/users/current')
    expect(session.get().mfaRequired).toBe(true)
  })

  it('§4: a confirmation that never reaches the server (network down) does not leave MFA answers ignored', async () => {
    server.use(
      mfaRequiredAnswer(),
      http.post(apiUrl(CONFIRM), () => HttpResponse.error()),
    )
    await expect(totpEnrolConfirm(5, '123456', '')).rejects.toThrow()
    await nextTurn()
    await api.GET('/api/v1/users/current')
    expect(session.get().mfaRequired).toBe(true)
  })
})
