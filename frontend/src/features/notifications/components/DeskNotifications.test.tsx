import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { DeskNotifications } from './DeskNotifications'

describe('Issue 28 desk notifications', () => {
  it('a concierge turns on push for new requests', async () => {
    const patches: unknown[] = []
    let prefs = {
      reply_email: true,
      reply_push: true,
      completion_email: true,
      completion_push: true,
      show_previews: false,
      desk_new_request_push: false,
      desk_reply_push: false,
      is_concierge: true,
    }
    server.use(
      http.get(apiUrl('/api/v1/notifications/preferences'), () => HttpResponse.json(prefs)),
      http.patch(apiUrl('/api/v1/notifications/preferences'), async ({ request }) => {
        const change = (await request.json()) as Record<string, boolean>
        patches.push(change)
        prefs = { ...prefs, ...change }
        return HttpResponse.json(prefs)
      }),
      http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
        HttpResponse.json({ push_subscriptions: [] }),
      ),
      http.get(apiUrl('/api/v1/notifications/push_key'), () =>
        HttpResponse.json({ available: true, public_key: 'BPublicKey' }),
      ),
    )
    const { user } = renderWithProviders(<DeskNotifications />, { route: '/concierge' })
    await user.click(screen.getByText('Notifications'))
    const box = await screen.findByRole('checkbox', { name: 'New requests' })
    expect(box).not.toBeChecked()
    await user.click(box)
    await waitFor(() => expect(patches).toEqual([{ desk_new_request_push: true }]))
    expect(box).toBeChecked()
  })

  it('says so when the choices could not be loaded, and loads them on Retry', async () => {
    let failing = true
    server.use(
      http.get(apiUrl('/api/v1/notifications/preferences'), () =>
        failing
          ? HttpResponse.json({ success: false, error: 'Server error' }, { status: 500 })
          : HttpResponse.json({
              reply_email: true,
              reply_push: true,
              completion_email: true,
              completion_push: true,
              show_previews: false,
              desk_new_request_push: true,
              desk_reply_push: false,
              is_concierge: true,
            }),
      ),
      http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
        HttpResponse.json({ push_subscriptions: [] }),
      ),
      http.get(apiUrl('/api/v1/notifications/push_key'), () =>
        HttpResponse.json({ available: true, public_key: 'BPublicKey' }),
      ),
    )
    const { user } = renderWithProviders(<DeskNotifications />, { route: '/concierge' })
    await user.click(screen.getByText('Notifications'))
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'We couldn’t load your notification choices.',
    )
    failing = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('checkbox', { name: 'New requests' })).toBeChecked()
  })

  it('Escape closes the menu and gives the focus back to its button (ARCHITECTURE §8)', async () => {
    server.use(
      http.get(apiUrl('/api/v1/notifications/preferences'), () => HttpResponse.json({})),
      http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
        HttpResponse.json({ push_subscriptions: [] }),
      ),
      http.get(apiUrl('/api/v1/notifications/push_key'), () =>
        HttpResponse.json({ available: false, public_key: null }),
      ),
    )
    const { user } = renderWithProviders(<DeskNotifications />, { route: '/concierge' })
    const summary = screen.getByText('Notifications').closest('summary') as HTMLElement
    await user.click(summary)
    const menu = summary.closest('details') as HTMLDetailsElement
    expect(menu.open).toBe(true)
    await user.keyboard('{Escape}')
    expect(menu.open).toBe(false)
    expect(summary).toHaveFocus()
  })
})
