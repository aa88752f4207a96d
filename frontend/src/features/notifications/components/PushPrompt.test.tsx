import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { fakePushBrowser, removeFakePushBrowser } from '../test/fakePush'
import { PUSH_BLOCKED } from '../usePushDevice'
import { PROMPT_STORAGE_KEY, PROMPT_TITLE, PUSH_TURNED_ON, PushPrompt } from './PushPrompt'

function serveKey(key: string | null = 'BPublicKey') {
  const saved: unknown[] = []
  server.use(
    http.get(apiUrl('/api/v1/notifications/push_key'), () =>
      HttpResponse.json({ available: key !== null, public_key: key }),
    ),
    http.post(apiUrl('/api/v1/notifications/push_subscriptions'), async ({ request }) => {
      saved.push(await request.json())
      return HttpResponse.json(
        {
          id: 1,
          device_label: 'Chrome on Linux',
          created_at: '2026-11-27T10:00:00Z',
          last_used_at: null,
          current: true,
        },
        { status: 201 },
      )
    }),
  )
  return saved
}

beforeEach(() => localStorage.removeItem(PROMPT_STORAGE_KEY))
afterEach(removeFakePushBrowser)

describe('Issue 28 push permission prompt', () => {
  it('never shows before the first request', async () => {
    fakePushBrowser()
    serveKey()
    renderWithProviders(<PushPrompt requestCount={0} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
  })

  it('shows after the first request, and Not now hides it for good', async () => {
    const { notification } = fakePushBrowser()
    serveKey()
    const { user, unmount } = renderWithProviders(<PushPrompt requestCount={1} />)
    expect(await screen.findByRole('region', { name: PROMPT_TITLE })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Not now' }))
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
    expect(notification.requestPermission).not.toHaveBeenCalled()
    unmount()
    renderWithProviders(<PushPrompt requestCount={2} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
  })

  it('turning on asks the browser, saves the subscription as turned on and says so', async () => {
    fakePushBrowser()
    const saved = serveKey()
    const { user } = renderWithProviders(<PushPrompt requestCount={1} />)
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }))
    await waitFor(() => expect(saved).toEqual([expect.objectContaining({ explicit: true })]))
    expect(await screen.findByText(PUSH_TURNED_ON)).toBeInTheDocument()
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
    expect(localStorage.getItem(PROMPT_STORAGE_KEY)).toBe('accepted')
  })

  it('a refused permission says how to allow it and saves nothing', async () => {
    fakePushBrowser({ grant: 'denied' })
    const saved = serveKey()
    const { user } = renderWithProviders(<PushPrompt requestCount={1} />)
    await user.click(await screen.findByRole('button', { name: 'Turn on notifications' }))
    expect(await screen.findByText(PUSH_BLOCKED)).toBeInTheDocument()
    expect(saved).toEqual([])
  })

  it('stays hidden when push is not set up, or already on in this browser', async () => {
    fakePushBrowser({ subscribed: true })
    serveKey()
    renderWithProviders(<PushPrompt requestCount={3} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
    removeFakePushBrowser()
    fakePushBrowser()
    serveKey(null)
    renderWithProviders(<PushPrompt requestCount={3} />)
    await new Promise((r) => setTimeout(r, 50))
    expect(screen.queryByRole('region', { name: PROMPT_TITLE })).not.toBeInTheDocument()
  })
})
