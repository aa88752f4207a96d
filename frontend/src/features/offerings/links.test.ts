import { describe, expect, it } from 'vitest'
import { hasScheme, keyValueHref, keyValueLabel, safeHref, telHref, withHttps } from './links'

const row = (key: string | null, value: string, external_url: string | null = null) => ({
  key,
  value,
  external_url,
})

describe('§2 Offering details drawer: key_value link rules (keyValueHref)', () => {
  it('§2 Offering details drawer: phone uses a tel link of the digits and plus sign', () => {
    expect(keyValueHref(row('phone', '+1 (844) 555-0133'))).toBe('tel:+18445550133')
    expect(keyValueHref(row('phone', '1 (800) 555-0142 ext. 7'))).toBe('tel:180055501427')
  })

  it('§2 Offering details drawer: phone uses external_url when there is one', () => {
    expect(keyValueHref(row('phone', '1 (800) 555-0188', 'tel:+18005550188'))).toBe(
      'tel:+18005550188',
    )
  })

  it('§2 Offering details drawer: a phone value without digits is not a link', () => {
    expect(keyValueHref(row('phone', 'Call your HR team'))).toBeNull()
  })

  it('§2 Offering details drawer: email uses a mailto link of the value', () => {
    expect(keyValueHref(row('email', ' members@blueharbor.example '))).toBe(
      'mailto:members@blueharbor.example',
    )
  })

  it('§2 Offering details drawer: email uses external_url when there is one', () => {
    expect(
      keyValueHref(
        row('email', 'help@nestwell.example', 'mailto:help@nestwell.example?subject=Acme%20401k'),
      ),
    ).toBe('mailto:help@nestwell.example?subject=Acme%20401k')
  })

  it('§2 Offering details drawer: link gets https:// prepended if it has no scheme', () => {
    expect(keyValueHref(row('link', 'www.blueharbor.example/find-care'))).toBe(
      'https://www.blueharbor.example/find-care',
    )
    expect(keyValueHref(row('link', 'kindercare.example/backup'))).toBe(
      'https://kindercare.example/backup',
    )
  })

  it('§2 Offering details drawer: a link that has a scheme is kept as it is', () => {
    expect(keyValueHref(row('link', 'http://legacy.example/page'))).toBe(
      'http://legacy.example/page',
    )
    expect(keyValueHref(row('link', 'https://fitflex.example/join'))).toBe(
      'https://fitflex.example/join',
    )
  })

  it('§2 Offering details drawer: download uses external_url', () => {
    expect(keyValueHref(row('download', 'Summary (PDF)', 'https://cdn.example/summary.pdf'))).toBe(
      'https://cdn.example/summary.pdf',
    )
    expect(keyValueHref(row('download', 'Summary (PDF)', '/media/docs/summary.pdf'))).toBe(
      '/media/docs/summary.pdf',
    )
    expect(keyValueHref(row('download', 'Summary (PDF)'))).toBeNull()
  })

  it('§2 Offering details drawer: other keys render as label and value (no link)', () => {
    expect(keyValueHref(row('Group number', 'ACME-4471'))).toBeNull()
    expect(keyValueHref(row(null, 'www.example.com', 'https://example.com'))).toBeNull()
  })

  it('link keys are matched whatever their case or surrounding spaces', () => {
    expect(keyValueHref(row(' Phone ', '555 0100'))).toBe('tel:5550100')
    expect(keyValueHref(row('LINK', 'example.com'))).toBe('https://example.com')
  })

  it('never produces a javascript: or other unexpected address', () => {
    expect(keyValueHref(row('link', 'javascript:alert(1)'))).toBeNull()
    expect(keyValueHref(row('download', 'x', 'javascript:alert(1)'))).toBeNull()
    expect(keyValueHref(row('email', 'x', 'data:text/html,hi'))).toBeNull()
  })
})

describe('link helpers', () => {
  it('hasScheme recognises URL schemes but not host:port', () => {
    expect(hasScheme('https://a.example')).toBe(true)
    expect(hasScheme('mailto:a@b.example')).toBe(true)
    expect(hasScheme('tel:+1555')).toBe(true)
    expect(hasScheme('www.a.example')).toBe(false)
    expect(hasScheme('a.example:8080/x')).toBe(false)
  })

  it('withHttps prepends https:// to addresses without a scheme', () => {
    expect(withHttps('a.example')).toBe('https://a.example')
    expect(withHttps('//a.example')).toBe('https://a.example')
    expect(withHttps('https://a.example')).toBe('https://a.example')
  })

  it('telHref keeps only digits and plus signs', () => {
    expect(telHref('+44 (0)20 7946-0958')).toBe('tel:+4402079460958')
    expect(telHref('n/a')).toBeNull()
  })

  it('safeHref allows http(s), mailto, tel and same-site paths only', () => {
    expect(safeHref('/products/term-life-insurance')).toBe('/products/term-life-insurance')
    expect(safeHref('https://a.example')).toBe('https://a.example')
    expect(safeHref('//evil.example')).toBeNull()
    expect(safeHref('ftp://a.example')).toBeNull()
    expect(safeHref('')).toBeNull()
    expect(safeHref(null)).toBeNull()
  })

  it('keyValueLabel names link rows and keeps other keys', () => {
    expect(keyValueLabel('phone')).toBe('Phone')
    expect(keyValueLabel('email')).toBe('Email')
    expect(keyValueLabel('link')).toBe('Website')
    expect(keyValueLabel('download')).toBe('Download')
    expect(keyValueLabel('Group number')).toBe('Group number')
  })
})
