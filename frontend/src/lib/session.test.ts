import { describe, expect, it } from 'vitest'
import { returnTarget, session } from './session'

describe('§4 authentication: session state', () => {
  it('§4: authenticated means a token exists and its expiry is in the future', () => {
    session.start('tok', new Date(Date.now() + 60_000).toISOString())
    expect(session.isAuthenticated()).toBe(true)
    session.start('tok', new Date(Date.now() - 1_000).toISOString())
    expect(session.isAuthenticated()).toBe(false)
  })

  it('§4: sign-out clears all local storage', () => {
    session.start('tok', new Date(Date.now() + 60_000).toISOString())
    window.localStorage.setItem('other', 'x')
    session.clear()
    expect(window.localStorage.length).toBe(0)
    expect(session.get().token).toBeNull()
  })

  it('§2 access rules: the return target skips the root and sign-in paths', () => {
    returnTarget.save('/')
    returnTarget.save('/sign-in')
    expect(returnTarget.take()).toBeNull()
    returnTarget.save('/requests/4?tab=x')
    expect(returnTarget.peek()).toBe('/requests/4?tab=x')
    expect(returnTarget.take()).toBe('/requests/4?tab=x')
    expect(returnTarget.take()).toBeNull()
  })
})
