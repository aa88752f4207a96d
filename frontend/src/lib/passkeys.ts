/**
 * What a person is told when the browser did not complete a passkey request (WebAuthn), for
 * creating a passkey and for signing in with one alike.
 */

type Address = Pick<Location, 'hostname' | 'port' | 'protocol'>

const IP_ADDRESS = /^(\d{1,3}(\.\d{1,3}){3}|\[[0-9a-f:.]+\])$/i
const LOOPBACK = new Set(['127.0.0.1', '[::1]'])

/**
 * Why the browser refused this site as the passkey's relying party (a `SecurityError`): on an
 * IP address, which browsers never accept, where to open the site instead; on a domain name,
 * that the site's passkeys belong to another domain.
 */
export function passkeyRefusedMessage(address: Address): string {
  const { hostname, port, protocol } = address
  if (IP_ADDRESS.test(hostname)) {
    const suggestion = LOOPBACK.has(hostname)
      ? ` Open this site at ${protocol}//localhost${port ? `:${port}` : ''} and try again.`
      : ' Open this site at its domain name and try again.'
    return `Your browser doesn’t allow passkeys on an IP address such as ${hostname}, only on a domain name.${suggestion}`
  }
  return `Your browser refused passkeys on ${hostname}: this site’s passkeys are set up for another domain. Please contact support.`
}

/** The message for a passkey request the browser ended with `error`, else `fallback`. */
export function passkeyFailureMessage(
  error: unknown,
  fallback: string,
  address: Address = window.location,
): string {
  // An Error, or the browser's own DOMException (not an Error everywhere).
  const name = error instanceof Error || error instanceof DOMException ? error.name : ''
  if (name === 'SecurityError') return passkeyRefusedMessage(address)
  if (name === 'NotAllowedError') {
    return 'The passkey request was cancelled or timed out. Please try again.'
  }
  return fallback
}
