import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

vi.mock('./config', () => ({
  config: {
    analyticsId: 'G-TEST',
    analyticsScriptUrl: 'https://tags.example.com/gtag/js',
    reportAnalytics: true,
  },
}))

/** The data layer's entries as plain arrays (gtag calls are Arguments objects). */
function entries(): unknown[][] {
  return (window.dataLayer ?? []).map((entry) => Array.from(entry as ArrayLike<unknown>))
}

async function freshTag() {
  vi.resetModules()
  return import('./analyticsTag')
}

describe('§8 analytics tag', () => {
  beforeEach(() => {
    window.dataLayer = undefined
    for (const script of document.head.querySelectorAll('script')) script.remove()
  })
  afterEach(() => {
    window.dataLayer = undefined
  })

  it('§8 analytics: the first page view loads the configured tag once, with the analytics id', async () => {
    const tag = await freshTag()
    tag.pageView('/dashboard', 'Concierge | Dashboard')
    tag.pageView('/requests', 'Concierge | Requests')
    const scripts = document.head.querySelectorAll('script')
    expect(scripts).toHaveLength(1)
    expect(scripts[0].src).toBe('https://tags.example.com/gtag/js?id=G-TEST')
    expect(scripts[0].async).toBe(true)
    const [js, configCall] = entries()
    expect(js[0]).toBe('js')
    expect(configCall).toEqual([
      'config',
      'G-TEST',
      expect.objectContaining({ send_page_view: false }),
    ])
  })

  it('§2/§8 analytics: page paths with tokens or ids reach the tag anonymised only', async () => {
    const tag = await freshTag()
    tag.pageView('/unlock/secret-unlock-token', 'Concierge | Unlock Account')
    tag.pageView('/requests/4242', 'Concierge | Request')
    const views = entries().filter((entry) => entry[0] === 'event')
    expect(views).toEqual([
      [
        'event',
        'page_view',
        expect.objectContaining({
          page_path: '/unlock/:unlockToken',
          page_location: `${window.location.origin}/unlock/:unlockToken`,
          page_title: 'Concierge | Unlock Account',
        }),
      ],
      [
        'event',
        'page_view',
        expect.objectContaining({
          page_path: '/requests/:requestId',
          page_referrer: `${window.location.origin}/unlock/:unlockToken`,
        }),
      ],
    ])
    const sent = JSON.stringify(entries())
    expect(sent).not.toContain('secret-unlock-token')
    expect(sent).not.toContain('4242')
  })

  it('§4 analytics identity: set to the user on sign-in and cleared on sign-out', async () => {
    const tag = await freshTag()
    tag.identify('usr_ext_1')
    tag.identify('usr_ext_1') // the user refreshed: told once
    tag.resetIdentity()
    tag.identify('usr_ext_1') // signed in again
    const sets = entries().filter((entry) => entry[0] === 'set')
    expect(sets).toEqual([
      ['set', { user_id: 'usr_ext_1' }],
      ['set', { user_id: null }],
      ['set', { user_id: 'usr_ext_1' }],
    ])
  })
})
