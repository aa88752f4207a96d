/**
 * Link rules of the offering details drawer (spec §2 'Offering details drawer', key_value):
 * rows whose key is phone, email, link or download render as links.
 *
 * - phone    → external_url, else `tel:` + the value's digits and '+' signs
 * - email    → external_url, else `mailto:` + the value
 * - link     → the value, with `https://` prepended when it has no scheme
 * - download → external_url
 *
 * Every address also passes `safeHref`, so a row can never carry a `javascript:` or other
 * unexpected scheme into the page.
 */
import type { OfferingSectionItem } from './api'

export type LinkKey = 'phone' | 'email' | 'link' | 'download'

const LINK_KEYS: readonly LinkKey[] = ['phone', 'email', 'link', 'download']

/** Schemes an offering may link to. Relative paths (e.g. '/products/...') are allowed too. */
const ALLOWED_SCHEMES = ['http:', 'https:', 'mailto:', 'tel:']

/** The row's link key ('phone', 'email', 'link', 'download'), or null for a plain label row. */
export function linkKey(key: string | null | undefined): LinkKey | null {
  const normalised = (key ?? '').trim().toLowerCase()
  return (LINK_KEYS as readonly string[]).includes(normalised) ? (normalised as LinkKey) : null
}

/** True when the address starts with a URL scheme such as `https://`, `mailto:` or `tel:`. */
export function hasScheme(address: string): boolean {
  return /^[a-z][a-z\d+.-]*:\/\//i.test(address) || /^(mailto|tel|sms):/i.test(address)
}

/** `www.example.com` → `https://www.example.com`; addresses with a scheme stay as they are. */
export function withHttps(address: string): string {
  const trimmed = address.trim()
  if (!trimmed) return ''
  if (hasScheme(trimmed)) return trimmed
  if (trimmed.startsWith('//')) return `https:${trimmed}`
  return `https://${trimmed}`
}

/** `tel:` + only the digits and plus signs of a phone number ('1 (800) 555-0142' → 'tel:18005550142'). */
export function telHref(phone: string): string | null {
  const digits = phone.replace(/[^\d+]/g, '')
  return /\d/.test(digits) ? `tel:${digits}` : null
}

/** The address if it is safe to put in an href (http, https, mailto, tel or a same-site path). */
export function safeHref(address: string | null | undefined): string | null {
  const trimmed = (address ?? '').trim()
  if (!trimmed) return null
  if (trimmed.startsWith('/') && !trimmed.startsWith('//')) return trimmed
  try {
    const url = new URL(trimmed)
    return ALLOWED_SCHEMES.includes(url.protocol) ? trimmed : null
  } catch {
    return null
  }
}

/** The href a key_value row links to, or null when the row renders as a label and value. */
export function keyValueHref(
  item: Pick<OfferingSectionItem, 'key' | 'value' | 'external_url'>,
): string | null {
  const external = item.external_url?.trim() || null
  const value = item.value.trim()
  switch (linkKey(item.key)) {
    case 'phone':
      return safeHref(external ?? telHref(value))
    case 'email':
      return safeHref(external ?? (value ? `mailto:${value}` : null))
    case 'link':
      return safeHref(value ? withHttps(value) : external)
    case 'download':
      return safeHref(external)
    default:
      return null
  }
}

/** The visible label of a key_value row: link rows get a friendly name, others keep their key. */
export function keyValueLabel(key: string | null | undefined): string {
  switch (linkKey(key)) {
    case 'phone':
      return 'Phone'
    case 'email':
      return 'Email'
    case 'link':
      return 'Website'
    case 'download':
      return 'Download'
    default:
      return (key ?? '').trim()
  }
}
