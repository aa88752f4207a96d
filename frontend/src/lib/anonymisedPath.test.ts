import { describe, expect, it } from 'vitest'
import { anonymisePath } from './analyticsTag'

describe('§2 analytics: paths with tokens or ids are anonymised', () => {
  it.each([
    ['/reset-password/abc123', '/reset-password/:resetToken'],
    ['/unlock/tok', '/unlock/:unlockToken'],
    ['/verify-email/eyJ1:1a:sig', '/verify-email/:verificationToken'],
    ['/account/data/tok_en-1', '/account/data/:exportToken'],
    ['/requests/42', '/requests/:requestId'],
    ['/requests/category/7', '/requests/category/:categoryId'],
    ['/attachments/uploads%2Fx%2Ff.pdf', '/attachments/:fileKey'],
    ['/dashboard', '/dashboard'],
    ['/requests', '/requests'],
  ])('%s → %s', (path, expected) => {
    expect(anonymisePath(path)).toBe(expected)
  })
})
