import { QueryClient } from '@tanstack/react-query'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { server } from '@/test/server'
import {
  FEATURED_BENEFITS,
  fetchOffering,
  OFFERING_FETCH_DELAY_MS,
  OfferingNotFoundError,
  offeringKeys,
  waitForFetchWindow,
} from './api'
import { medicalDetail, offeringsApi } from './test/fixtures'

afterEach(() => {
  vi.useRealTimers()
})

describe('§7 Offerings: offering fetches are throttled at 1000 ms', () => {
  const key = offeringKeys.list(FEATURED_BENEFITS)

  it('the first fetch of a query starts at once', async () => {
    const client = new QueryClient()
    const signal = new AbortController().signal
    const settled = vi.fn()
    await waitForFetchWindow({ client, queryKey: key, signal }).then(settled)
    expect(settled).toHaveBeenCalled()
  })

  it('a refetch within 1000 ms of the previous response waits for the rest of the window', async () => {
    vi.useFakeTimers()
    const client = new QueryClient()
    client.setQueryData(key, [])
    vi.advanceTimersByTime(300)
    const settled = vi.fn()
    const waiting = waitForFetchWindow({
      client,
      queryKey: key,
      signal: new AbortController().signal,
    }).then(settled)
    await vi.advanceTimersByTimeAsync(OFFERING_FETCH_DELAY_MS - 300 - 1)
    expect(settled).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    await waiting
    expect(settled).toHaveBeenCalled()
  })

  it('a refetch after the window starts at once', async () => {
    vi.useFakeTimers()
    const client = new QueryClient()
    client.setQueryData(key, [])
    vi.advanceTimersByTime(OFFERING_FETCH_DELAY_MS)
    const settled = vi.fn()
    await waitForFetchWindow({ client, queryKey: key, signal: new AbortController().signal }).then(
      settled,
    )
    expect(settled).toHaveBeenCalled()
  })

  it('a cancelled query stops waiting', async () => {
    vi.useFakeTimers()
    const client = new QueryClient()
    client.setQueryData(key, [])
    const controller = new AbortController()
    const waiting = waitForFetchWindow({ client, queryKey: key, signal: controller.signal })
    controller.abort(new Error('cancelled'))
    await expect(waiting).rejects.toThrow('cancelled')
  })
})

describe('§7 Offerings: GET /api/v1/offerings/{id}', () => {
  it('returns the offering', async () => {
    server.use(...offeringsApi({ details: { 1: medicalDetail } }).handlers)
    await expect(fetchOffering(1)).resolves.toEqual(medicalDetail)
  })

  it('a 404 (unknown or not visible) is an OfferingNotFoundError', async () => {
    server.use(...offeringsApi({ details: {} }).handlers)
    await expect(fetchOffering(99)).rejects.toBeInstanceOf(OfferingNotFoundError)
  })
})
