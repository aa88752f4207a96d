import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_PREFERENCES } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { fakePushBrowser, removeFakePushBrowser } from '../test/fakePush'
import {
  DEVICES_FAILED,
  NotificationsSection,
  PUSH_UNAVAILABLE,
  PUSH_UNSUPPORTED,
} from './NotificationsSection'

const PHONE = {
  id: 4,
  device_label: 'Safari on iPhone',
  created_at: '2026-11-02T10:00:00Z',
  last_used_at: null,
  current: false,
}

function serve({ key = 'BPublicKey' as string | null, devices = [PHONE] } = {}) {
  const patches: unknown[] = []
  const deleted: string[] = []
  let prefs = { ...DEFAULT_PREFERENCES }
  let list = [...devices]
  server.use(
    http.get(apiUrl('/api/v1/notifications/preferences'), () => HttpResponse.json(prefs)),
    http.patch(apiUrl('/api/v1/notifications/preferences'), async ({ request }) => {
      const change = (await request.json()) as Record<string, boolean>
      patches.push(change)
      prefs = { ...prefs, ...change }
      return HttpResponse.json(prefs)
    }),
    http.get(apiUrl('/api/v1/notifications/push_key'), () =>
      HttpResponse.json({ available: key !== null, public_key: key }),
    ),
    http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
      HttpResponse.json({ push_subscriptions: list }),
    ),
    http.delete(apiUrl('/api/v1/notifications/push_subscriptions/:id'), ({ params }) => {
      deleted.push(String(params.id))
      list = list.filter((d) => String(d.id) !== params.id)
      return new HttpResponse(null, { status: 204 })
    }),
  )
  return { patches, deleted }
}

afterEach(removeFakePushBrowser)

describe('Issue 28 Account page: Notifications', () => {
  it('shows each choice per channel and saves a change', async () => {
    const { patches } = serve()
    const { user } = renderWithProviders(<NotificationsSection />, { route: '/account' })
    expect(screen.getByRole('heading', { name: 'Notifications', level: 2 })).toBeInTheDocument()
    const section = within(screen.getByTestId('notifications-section'))
    const replies = within(
      await section.findByRole('group', { name: 'When your concierge replies' }),
    )
    const email = replies.getByRole('checkbox', { name: 'Email' })
    expect(email).toBeChecked()
    expect(
      section.getByRole('checkbox', { name: 'Show message text in notifications' }),
    ).not.toBeChecked()
    await user.click(email)
    await waitFor(() => expect(patches).toEqual([{ reply_email: false }]))
    expect(email).not.toBeChecked()

    const completed = within(section.getByRole('group', { name: 'When a request is completed' }))
    await user.click(completed.getByRole('checkbox', { name: 'Push notification' }))
    await waitFor(() => expect(patches).toContainEqual({ completion_push: false }))
  })

  it("lists this account's devices and removes one", async () => {
    const { deleted } = serve()
    const { user } = renderWithProviders(<NotificationsSection />, { route: '/account' })
    const list = within(await screen.findByRole('list', { name: 'Devices that get notifications' }))
    await user.click(list.getByRole('button', { name: 'Remove Safari on iPhone' }))
    await waitFor(() => expect(deleted).toEqual(['4']))
    expect(await screen.findByText('No device gets push notifications yet.')).toBeInTheDocument()
  })

  it('says so when the devices could not be loaded, and loads them on Retry', async () => {
    serve()
    let failing = true
    server.use(
      http.get(apiUrl('/api/v1/notifications/push_subscriptions'), () =>
        failing
          ? HttpResponse.json({ success: false, error: 'Server error' }, { status: 500 })
          : HttpResponse.json({ push_subscriptions: [PHONE] }),
      ),
    )
    const { user } = renderWithProviders(<NotificationsSection />, { route: '/account' })
    expect(await screen.findByRole('alert')).toHaveTextContent(DEVICES_FAILED)
    failing = false
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    const list = within(await screen.findByRole('list', { name: 'Devices that get notifications' }))
    expect(list.getByText('Safari on iPhone')).toBeInTheDocument()
  })

  it("says so when this browser can't get push", async () => {
    serve()
    renderWithProviders(<NotificationsSection />, { route: '/account' })
    expect(await screen.findByText(PUSH_UNSUPPORTED)).toBeInTheDocument()
  })

  it('says so when the server has no push keys', async () => {
    fakePushBrowser()
    serve({ key: null })
    renderWithProviders(<NotificationsSection />, { route: '/account' })
    expect(await screen.findByText(PUSH_UNAVAILABLE)).toBeInTheDocument()
    expect(
      screen.queryByRole('button', { name: 'Turn on notifications in this browser' }),
    ).not.toBeInTheDocument()
    // No push to choose: only the emails are offered.
    expect(screen.getAllByRole('checkbox', { name: 'Email' })).toHaveLength(2)
    expect(screen.queryByRole('checkbox', { name: 'Push notification' })).toBeNull()
    expect(
      screen.queryByRole('checkbox', { name: 'Show message text in notifications' }),
    ).toBeNull()
  })

  it("removing this browser's own device ends its subscription, so it is not saved again", async () => {
    const { subscription } = fakePushBrowser({ subscribed: true, permission: 'granted' })
    const here = { ...PHONE, id: 9, device_label: 'Chrome on Linux', current: true }
    const { deleted } = serve({ devices: [here] })
    const { user } = renderWithProviders(<NotificationsSection />, { route: '/account' })
    const list = within(await screen.findByRole('list', { name: 'Devices that get notifications' }))
    await user.click(list.getByRole('button', { name: 'Remove Chrome on Linux' }))
    await waitFor(() => expect(deleted).toEqual(['9']))
    await waitFor(() => expect(subscription.unsubscribe).toHaveBeenCalledOnce())
    expect(
      await screen.findByRole('button', { name: 'Turn on notifications in this browser' }),
    ).toBeInTheDocument()
  })

  it('turns push on in this browser: permission, subscription, then saved on the server as turned on', async () => {
    const { pushManager, notification } = fakePushBrowser()
    serve({ devices: [] })
    const saved: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/notifications/push_subscriptions'), async ({ request }) => {
        saved.push(await request.json())
        return HttpResponse.json({ ...PHONE, id: 9, current: true }, { status: 201 })
      }),
    )
    const { user } = renderWithProviders(<NotificationsSection />, { route: '/account' })
    await user.click(
      await screen.findByRole('button', { name: 'Turn on notifications in this browser' }),
    )
    await waitFor(() =>
      expect(saved).toEqual([
        {
          endpoint: 'https://fcm.googleapis.com/fcm/send/this-browser',
          keys: { p256dh: 'browser-key', auth: 'browser-auth' },
          explicit: true,
        },
      ]),
    )
    expect(notification.requestPermission).toHaveBeenCalledOnce()
    expect(pushManager.subscribe).toHaveBeenCalledWith(
      expect.objectContaining({ userVisibleOnly: true }),
    )
  })
})
