import { HttpResponse, http } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { apiUrl, server } from '@/test/server'
import { registerWhenLoaded } from './serviceWorker'
import { ENDPOINT, fakePushBrowser, removeFakePushBrowser } from './test/fakePush'

type Saved = { endpoint: string; explicit: boolean }

/** The saves the server got; it answers each with `status` (201: saved, 404: no such device). */
function serverSaves(status = 201) {
  const saved: Saved[] = []
  server.use(
    http.post(apiUrl('/api/v1/notifications/push_subscriptions'), async ({ request }) => {
      saved.push((await request.json()) as Saved)
      return HttpResponse.json(status === 201 ? {} : { detail: 'No.' }, { status })
    }),
  )
  return saved
}

/** Lets a start that is under way finish. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 50))

describe('Issue 28 push: each start binds this browser to the signed-in session', () => {
  afterEach(() => removeFakePushBrowser())

  it('saves the subscription again when this browser already gets push', async () => {
    fakePushBrowser({ permission: 'granted', subscribed: true })
    const saved = serverSaves()
    registerWhenLoaded()
    await expect.poll(() => saved.map((s) => s.endpoint)).toEqual([ENDPOINT])
  })

  it('saves it as the app’s own save, never as the person turning notifications on', async () => {
    fakePushBrowser({ permission: 'granted', subscribed: true })
    const saved = serverSaves()
    registerWhenLoaded()
    await expect.poll(() => saved).toEqual([expect.objectContaining({ explicit: false })])
  })

  it('a device removed elsewhere stays removed: this browser’s subscription ends, the next start saves nothing', async () => {
    const { subscription } = fakePushBrowser({ permission: 'granted', subscribed: true })
    const saved = serverSaves(404)
    registerWhenLoaded()
    await expect.poll(() => subscription.unsubscribe).toHaveBeenCalledOnce()
    registerWhenLoaded()
    await settled()
    expect(saved).toHaveLength(1)
  })

  it('a save that fails for another reason (offline, a server error) keeps the subscription', async () => {
    const { subscription } = fakePushBrowser({ permission: 'granted', subscribed: true })
    const saved = serverSaves(500)
    registerWhenLoaded()
    await expect.poll(() => saved).toHaveLength(1)
    await settled()
    expect(subscription.unsubscribe).not.toHaveBeenCalled()
  })

  it('saves nothing when this browser has no subscription or no permission', async () => {
    const { pushManager } = fakePushBrowser({ permission: 'default', subscribed: true })
    const saved = serverSaves()
    registerWhenLoaded()
    await expect.poll(() => navigator.serviceWorker.register).toHaveBeenCalled()
    await settled()
    expect(pushManager.getSubscription).not.toHaveBeenCalled()
    expect(saved).toEqual([])
  })
})
