import { describe, expect, it } from 'vitest'
import { passkeyFailureMessage, passkeyRefusedMessage } from './passkeys'

const FALLBACK = 'We couldn’t use a passkey on this device. Please try again.'
const LOCAL_IP = { hostname: '127.0.0.1', port: '8000', protocol: 'http:' }

/** What @simplewebauthn/browser throws: a WebAuthnError named after the browser's error. */
function browserError(name: string, message = ''): Error {
  const error = new Error(message)
  error.name = name
  return error
}

describe('passkey errors name their cause', () => {
  it('a browser refusing an IP address as relying party says so and where to go instead', () => {
    const refused = browserError('SecurityError', '127.0.0.1 is an invalid domain')
    expect(passkeyFailureMessage(refused, FALLBACK, LOCAL_IP)).toBe(
      'Your browser doesn’t allow passkeys on an IP address such as 127.0.0.1, only on a domain name. Open this site at http://localhost:8000 and try again.',
    )
    expect(passkeyRefusedMessage({ hostname: '[::1]', port: '', protocol: 'http:' })).toContain(
      'Open this site at http://localhost and try again.',
    )
    expect(passkeyRefusedMessage({ hostname: '10.0.0.7', port: '', protocol: 'https:' })).toContain(
      'such as 10.0.0.7, only on a domain name. Open this site at its domain name',
    )
  })

  it('a browser refusing a domain the passkeys are not set up for says so', () => {
    const refused = new DOMException('The RP ID is invalid for this domain', 'SecurityError')
    const address = { hostname: 'app.example.com', port: '', protocol: 'https:' }
    expect(passkeyFailureMessage(refused, FALLBACK, address)).toBe(
      'Your browser refused passkeys on app.example.com: this site’s passkeys are set up for another domain. Please contact support.',
    )
  })

  it('a cancelled request, and anything else, keep their messages', () => {
    expect(passkeyFailureMessage(browserError('NotAllowedError'), FALLBACK, LOCAL_IP)).toBe(
      'The passkey request was cancelled or timed out. Please try again.',
    )
    expect(passkeyFailureMessage(browserError('UnknownError'), FALLBACK, LOCAL_IP)).toBe(FALLBACK)
    expect(passkeyFailureMessage('not an error', FALLBACK, LOCAL_IP)).toBe(FALLBACK)
  })
})
