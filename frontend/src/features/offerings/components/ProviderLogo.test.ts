import { describe, expect, it } from 'vitest'
import { providerInitials } from './ProviderLogo'

describe('a provider without a logo shows its initials', () => {
  it('takes the first and last words’ first letters, ignoring markup and emoji', () => {
    expect(providerInitials('Acme Home Warranty')).toBe('AW')
    expect(providerInitials('Lemonade')).toBe('L')
    expect(providerInitials('QA 🚀 Ünïcode Provider <b>Inc</b>')).toBe('QI')
    expect(providerInitials('🚀 <i></i>')).toBe('?')
    expect(providerInitials('')).toBe('?')
  })
})
