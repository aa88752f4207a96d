import { describe, expect, it, vi } from 'vitest'
import { CONFIG_ERROR_MESSAGE, loadConfig, parseConfig } from './config'

const ORIGIN = 'http://127.0.0.1:8000'

describe('§5 environment configuration', () => {
  it('§5: defaults the API base URL to the page origin', () => {
    expect(parseConfig({}, ORIGIN).apiBaseUrl).toBe(ORIGIN)
  })

  it('§5: an invalid API base URL refuses to start with the spec message', () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(loadConfig({ VITE_API_BASE_URL: 'not a url' }, ORIGIN)).toBeNull()
    expect(error).toHaveBeenCalledWith(CONFIG_ERROR_MESSAGE)
  })

  it('§5: analytics id and report flags must be strings', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(loadConfig({ VITE_ANALYTICS_ID: 42 }, ORIGIN)).toBeNull()
    expect(loadConfig({ VITE_REPORT_ERRORS: true }, ORIGIN)).toBeNull()
    expect(loadConfig({ VITE_ANALYTICS_ID: 'G-1', VITE_REPORT_ERRORS: 'true' }, ORIGIN)).toEqual(
      expect.objectContaining({ analyticsId: 'G-1', reportErrors: true }),
    )
  })

  it('§5: the analytics tag address is Google’s gtag.js unless a valid URL is configured', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(parseConfig({}, ORIGIN).analyticsScriptUrl).toBe(
      'https://www.googletagmanager.com/gtag/js',
    )
    expect(
      parseConfig({ VITE_ANALYTICS_SCRIPT_URL: 'https://tags.example.com/t.js' }, ORIGIN)
        .analyticsScriptUrl,
    ).toBe('https://tags.example.com/t.js')
    expect(loadConfig({ VITE_ANALYTICS_SCRIPT_URL: 'javascript:alert(1)' }, ORIGIN)).toBeNull()
  })

  it('§7: the production API from a non-production origin goes to the local server', () => {
    const env = {
      VITE_API_BASE_URL: 'https://api.example.com',
      VITE_PRODUCTION_API_URL: 'https://api.example.com',
      VITE_PRODUCTION_ORIGIN: 'https://app.example.com',
    }
    expect(parseConfig(env, ORIGIN).apiBaseUrl).toBe(ORIGIN)
    expect(parseConfig(env, 'https://app.example.com').apiBaseUrl).toBe('https://api.example.com')
    expect(parseConfig({ ...env, VITE_API_OVERRIDE: 'true' }, ORIGIN).apiBaseUrl).toBe(
      'https://api.example.com',
    )
  })
})
