import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import Attachment, { DOWNLOAD_STARTED_AFTER_MS } from './Attachment'

const originalLocation = window.location
const assign = vi.fn()
const replace = vi.fn()

beforeEach(() => {
  assign.mockReset()
  replace.mockReset()
  Object.defineProperty(window, 'location', {
    configurable: true,
    value: { ...originalLocation, origin: originalLocation.origin, assign, replace },
  })
})

afterEach(() => {
  Object.defineProperty(window, 'location', { configurable: true, value: originalLocation })
})

function renderAttachment(fileKey: string) {
  return renderWithProviders(<Attachment />, {
    route: `/attachments/${fileKey}`,
    path: '/attachments/:fileKey',
  })
}

describe('Attachment', () => {
  it("issue 10: ?view=inline (a thread's PDF in a new tab) replaces the page with the browser's viewer", async () => {
    let inline: string | null = null
    server.use(
      http.get(apiUrl('/api/v1/uploads/expiring_url'), ({ request }) => {
        inline = new URL(request.url).searchParams.get('inline')
        return HttpResponse.json({ expiring_url: 'https://files.example.com/a.pdf?inline=1' })
      }),
    )
    signInSession()
    renderWithProviders(<Attachment />, {
      route: '/attachments/uploads%2F42%2Fa.pdf?view=inline',
      path: '/attachments/:fileKey',
    })
    await waitFor(() =>
      expect(replace).toHaveBeenCalledWith('https://files.example.com/a.pdf?inline=1'),
    )
    expect(inline).toBe('true')
    expect(assign).not.toHaveBeenCalled()
  })

  it('§7 uploads: decodes the file key, resolves the expiring address and navigates there', async () => {
    let key: string | null = null
    let authorization: string | null = null
    server.use(
      http.get(apiUrl('/api/v1/uploads/expiring_url'), ({ request }) => {
        key = new URL(request.url).searchParams.get('key')
        authorization = request.headers.get('Authorization')
        return HttpResponse.json({ expiring_url: 'https://files.example.com/a.pdf?sig=1' })
      }),
    )
    signInSession()
    renderAttachment(encodeURIComponent('uploads/42/report final.pdf'))
    expect(screen.getByRole('status', { name: 'Opening attachment…' })).toBeInTheDocument()
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://files.example.com/a.pdf?sig=1'),
    )
    expect(assign).toHaveBeenCalledTimes(1)
    expect(key).toBe('uploads/42/report final.pdf')
    expect(authorization).toBe('Bearer test-token')
  })

  it('§2 attachment: when the browser stays (a download), it offers a way back and a retry', async () => {
    server.use(
      http.get(apiUrl('/api/v1/uploads/expiring_url'), () =>
        HttpResponse.json({ expiring_url: 'https://files.example.com/a.pdf?sig=1' }),
      ),
    )
    signInSession()
    renderAttachment('uploads%2F42%2Fa.pdf')
    expect(
      await screen.findByRole(
        'heading',
        { name: 'Your download has started' },
        { timeout: DOWNLOAD_STARTED_AFTER_MS + 1500 },
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Download again' })).toHaveAttribute(
      'href',
      'https://files.example.com/a.pdf?sig=1',
    )
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument()
    expect(assign).toHaveBeenCalledTimes(1)
  })

  it('§2 attachment: a failed lookup shows an error with a way back', async () => {
    server.use(
      http.get(apiUrl('/api/v1/uploads/expiring_url'), () => errorResponse(404, 'Not found')),
    )
    renderAttachment('missing-key')
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t open this attachment' }),
    ).toBeInTheDocument()
    expect(
      screen.getByText(
        'The link may have expired or the file is no longer available. Please go back and try again.',
      ),
    ).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Go back' })).toBeInTheDocument()
    expect(assign).not.toHaveBeenCalled()
  })

  it('§2 attachment: an empty file key goes to NotFound', () => {
    renderAttachment('%20')
    expect(
      screen.getByRole('heading', { name: "Oops! We can't find that page." }),
    ).toBeInTheDocument()
  })
})
