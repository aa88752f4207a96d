import { beforeEach, describe, expect, it } from 'vitest'
import { returnTarget } from '@/lib/session'
import { makeUser } from '@/test/render'
import { homePath, postLoginPath } from './currentUser'

const employee = makeUser()
const concierge = makeUser({ email: 'concierge@example.com', is_concierge: true, companies: [] })

beforeEach(() => returnTarget.take())

describe('post-login path', () => {
  it('issue 5: the landing helpers pick the desk for a concierge and the Dashboard otherwise', () => {
    expect(homePath(concierge)).toBe('/concierge')
    expect(homePath(employee)).toBe('/dashboard')
    expect(homePath(null)).toBe('/dashboard')
    expect(postLoginPath(concierge)).toBe('/concierge')
    returnTarget.save('/account')
    expect(postLoginPath(concierge)).toBe('/account')
  })
})
