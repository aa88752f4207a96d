import { describe, expect, it } from 'vitest'
import { anonymisedPath } from './anonymisedPath'

describe('§2, §8 analytics and error reports: paths with tokens or ids are anonymised', () => {
  it.each([
    ['/reset-password/abc123', '/reset-password/:resetToken'],
    ['/unlock/tok', '/unlock/:unlockToken'],
    ['/old-tok/unlock', '/:unlockToken/unlock'],
    ['/verify-email/eyJ1:1a:sig', '/verify-email/:verificationToken'],
    ['/change-email/eyJ1:1a:sig', '/change-email/:changeToken'],
    ['/rate/eyJ1.abc.sig', '/rate/:token'],
    ['/concierge/requests/42', '/concierge/requests/:requestId'],
    ['/account/data/tok_en-1', '/account/data/:exportToken'],
    ['/requests/42', '/requests/:requestId'],
    ['/requests/category/7', '/requests/category/:categoryId'],
    ['/attachments/uploads%2Fx%2Ff.pdf', '/attachments/:fileKey'],
    ['/dashboard', '/dashboard'],
    ['/requests', '/requests'],
  ])('%s → %s', (path, expected) => {
    expect(anonymisedPath(path)).toBe(expected)
  })
})
