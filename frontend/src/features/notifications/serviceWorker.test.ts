import { HttpResponse, http } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { apiUrl, server } from '@/test/server'
import { registerWhenLoaded } from './serviceWorker'
import { ENDPOINT, fakePushBrowser, removeFakePushBrowser } from './test/fakePush'

function savedEndpoints() {
  const saved: string[] = []
  server.use(
    http.post(apiUrl('/api/v1/notifications/push_subscriptions'), async ({ request }) => {
      saved.push(((await request.json()) as { endpoint: string }).endpoint)
      return HttpResponse.json({}, { status: 201 })
    }),
  )
  return saved
}

describe('Issue 28 push: each start binds this browser to the signed-in session', () => {
  afterEach(() => removeFakePushBrowser())

  it('saves the subscription again when this browser already gets push', async () => {
    fakePushBrowser({ permission: 'granted', subscribed: true })
    const saved = savedEndpoints()
    registerWhenLoaded()
    await expect.poll(() => saved).toEqual([ENDPOINT])
  })

  it('saves nothing when this browser has no subscription or no permission', async () => {
    const { pushManager } = fakePushBrowser({ permission: 'default', subscribed: true })
    const saved = savedEndpoints()
    registerWhenLoaded()
    await expect.poll(() => navigator.serviceWorker.register).toHaveBeenCalled()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(pushManager.getSubscription).not.toHaveBeenCalled()
    expect(saved).toEqual([])
  })
})
