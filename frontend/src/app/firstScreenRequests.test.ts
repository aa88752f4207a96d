import { waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { loader as dashboardLoader } from '@/features/dashboard/loader'
import { loader as offeringsLoader } from '@/features/offerings/loader'
import { loader as requestsLoader } from '@/features/requests/loader'
import { markFirstScreenShown } from '@/lib/firstScreen'
import { queryClient } from '@/lib/queryClient'
import { session } from '@/lib/session'
import { makeUser, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { firstScreenRequests } from './firstScreenRequests'
import { loader as appLoader } from './layouts/AppLayout'

type Loader = (args: never) => unknown

/** The GET addresses the app asks for while `run` goes, in the order it asks. */
async function recordGets(run: () => unknown, count: number): Promise<string[]> {
  const urls: string[] = []
  const record = ({ request }: { request: Request }) => {
    if (request.method === 'GET') urls.push(request.url)
  }
  server.events.on('request:start', record)
  try {
    run()
    await waitFor(() => expect(urls.length).toBeGreaterThanOrEqual(count))
    return urls
  } finally {
    server.events.removeListener('request:start', record)
  }
}

function answerEverything() {
  server.use(
    http.get(apiUrl('/api/v1/users/current'), () => HttpResponse.json(makeUser())),
    http.get(apiUrl('/api/v1/offerings'), () => HttpResponse.json({ offerings: [] })),
    http.get(apiUrl('/api/v1/*'), () => HttpResponse.json({})),
  )
}

describe('issue 8 the first screen asks for its data as the document arrives', () => {
  beforeEach(() => {
    signInSession()
    answerEverything()
    // Loaders of a screen after the first do not wait for their data.
    markFirstScreenShown()
  })
  afterEach(() => queryClient.clear())

  it.each<[string, Loader]>([
    ['/dashboard', dashboardLoader as Loader],
    ['/requests', requestsLoader as Loader],
    ['/benefits-and-offers', offeringsLoader as Loader],
  ])('issue 8: the early requests for %s are the ones its loaders make', async (path, loader) => {
    const expected = firstScreenRequests(path).map(apiUrl)
    const asked = await recordGets(() => {
      void (appLoader as Loader)({} as never)
      void loader({} as never)
    }, expected.length)
    expect([...new Set(asked)].sort()).toEqual([...expected].sort())
  })

  it('issue 8: any other page asks early for the user alone', () => {
    expect(firstScreenRequests('/requests/12')).toEqual(['/api/v1/users/current'])
    expect(firstScreenRequests('/dashboard/')).toEqual(firstScreenRequests('/dashboard'))
  })
})

describe('issue 8 the API client takes an early answer over once', () => {
  let userCalls = 0

  beforeEach(() => {
    userCalls = 0
    server.use(
      http.get(apiUrl('/api/v1/users/current'), () => {
        userCalls += 1
        return HttpResponse.json(makeUser({ first_name: `Call ${userCalls}` }))
      }),
    )
    window.history.pushState({}, '', '/requests/12')
    vi.resetModules()
  })
  afterEach(() => window.history.pushState({}, '', '/'))

  async function freshModules() {
    const early = await import('./firstScreenRequests')
    const { api } = await import('@/api/client')
    const { session: freshSession } = await import('@/lib/session')
    return { early, api, session: freshSession }
  }

  it('issue 8: the first ask takes the early answer, the next asks the server', async () => {
    signInSession()
    const { early, api } = await freshModules()
    early.startFirstScreenRequests(apiUrl(''))
    await waitFor(() => expect(userCalls).toBe(1))

    const first = await api.GET('/api/v1/users/current')
    expect(first.data?.first_name).toBe('Call 1')
    expect(userCalls).toBe(1)

    const second = await api.GET('/api/v1/users/current')
    expect(second.data?.first_name).toBe('Call 2')
    expect(userCalls).toBe(2)
  })

  it('issue 8: an answer for another session is never handed over', async () => {
    signInSession()
    const { early, api, session: freshSession } = await freshModules()
    early.startFirstScreenRequests(apiUrl(''))
    await waitFor(() => expect(userCalls).toBe(1))
    freshSession.start('another-token', new Date(Date.now() + 3_600_000).toISOString())

    const { data } = await api.GET('/api/v1/users/current')
    expect(data?.first_name).toBe('Call 2')
  })

  it('issue 8: signed out, or with MFA still to pass, nothing starts early', async () => {
    session.clear()
    const { early } = await freshModules()
    early.startFirstScreenRequests(apiUrl(''))
    signInSession()
    session.setMfaRequired(true)
    early.startFirstScreenRequests(apiUrl(''))
    session.setMfaRequired(false)
    session.setMfaEnrollmentAvailable(true)
    early.startFirstScreenRequests(apiUrl(''))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(userCalls).toBe(0)
  })

  it('issue 8: the early requests carry the session lib/session stores, MFA token included', async () => {
    let headers: Headers | undefined
    server.use(
      http.get(apiUrl('/api/v1/users/current'), ({ request }) => {
        headers = request.headers
        return HttpResponse.json(makeUser())
      }),
    )
    signInSession()
    session.setMfaToken('mfa-123')
    const { early } = await freshModules()
    early.startFirstScreenRequests(apiUrl(''))
    await waitFor(() => expect(headers).toBeDefined())
    expect(headers?.get('Authorization')).toBe('Bearer test-token')
    expect(headers?.get('mfa-token')).toBe('mfa-123')
  })
})
