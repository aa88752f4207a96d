/**
 * Spec §8 error reporting, against a local HTTP server standing in for Sentry's ingestion API
 * (it records the envelopes it receives): a render error arrives once, with no password,
 * token or message text in it; a 401 is never reported; nothing loads without a DSN.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { render } from '@testing-library/react'
import { http, passthrough } from 'msw'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { RouteError } from '@/app/RouteError'
import { type AppConfig, parseConfig } from '@/lib/config'
import { errorReportingEnabled, initErrorReporting, reportError } from '@/lib/errorReporting'
import { server as msw } from '@/test/server'

const PASSWORD = `pw-${Math.random().toString(36).slice(2)}`
const TOKEN = `tok-${Math.random().toString(36).slice(2)}`
const MESSAGE = `Walk Rex at gate ${Math.random().toString(36).slice(2)}`

const envelopes: string[] = []
let ingestion: Server
let settings: AppConfig
let ingestionUrl = ''

beforeAll(async () => {
  ingestion = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      envelopes.push(Buffer.concat(chunks).toString('utf8'))
      response.writeHead(200, { 'Access-Control-Allow-Origin': '*' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => ingestion.listen(0, '127.0.0.1', resolve))
  const { port } = ingestion.address() as AddressInfo
  const dsn = `http://publickey@127.0.0.1:${port}/1`
  ingestionUrl = `http://127.0.0.1:${port}/*`
  settings = parseConfig(
    { VITE_REPORT_ERRORS: 'true', VITE_SENTRY_DSN: dsn },
    'http://localhost:3000',
  )
})

afterAll(() => new Promise<void>((resolve) => ingestion.close(() => resolve())))

function errorEvents(): Record<string, unknown>[] {
  return envelopes.flatMap((envelope) => {
    const lines = envelope.split('\n')
    const events: Record<string, unknown>[] = []
    for (let i = 1; i + 1 < lines.length; i += 2) {
      if (JSON.parse(lines[i]).type === 'event') events.push(JSON.parse(lines[i + 1]))
    }
    return events
  })
}

function Thread(): never {
  throw new Error('The thread could not be drawn')
}

describe('§8 error reporting', () => {
  it('is off without a DSN or without VITE_REPORT_ERRORS', () => {
    expect(errorReportingEnabled(parseConfig({ VITE_REPORT_ERRORS: 'true' }, 'http://x'))).toBe(
      false,
    )
    expect(
      errorReportingEnabled(parseConfig({ VITE_SENTRY_DSN: 'http://k@h/1' }, 'http://x')),
    ).toBe(false)
  })

  it('a render error arrives once, without password, token or message text', async () => {
    msw.use(http.all(ingestionUrl, () => passthrough()))
    const sdk = await initErrorReporting(settings)
    expect(sdk).not.toBeNull()
    vi.spyOn(console, 'error').mockImplementation(() => {})
    window.localStorage.setItem('token', TOKEN)
    document.body.insertAdjacentHTML(
      'beforeend',
      `<p>${MESSAGE}</p><input type="password" value="${PASSWORD}">`,
    )
    const router = createMemoryRouter(
      [{ path: '/requests/:id', element: <Thread />, errorElement: <RouteError /> }],
      { initialEntries: [`/requests/7?token=${TOKEN}`] },
    )
    const view = render(<RouterProvider router={router} />)
    await view.findByText('Something went wrong')
    reportError({ status: 401, message: 'Please sign in to continue.' })
    await sdk?.flush(5000)

    const events = errorEvents()
    expect(events).toHaveLength(1)
    expect(JSON.stringify(events[0])).toContain('The thread could not be drawn')
    const everything = envelopes.join('\n')
    for (const secret of [PASSWORD, TOKEN, MESSAGE]) expect(everything).not.toContain(secret)
  })
})
