import { afterEach, describe, expect, it, vi } from 'vitest'

describe('the service worker, registered after the first screen', () => {
  afterEach(() => {
    vi.useRealTimers()
    vi.doUnmock('./serviceWorker')
    vi.resetModules()
  })

  it('a chunk that cannot load (offline by then) is no uncaught error: the next page load registers it', async () => {
    vi.useFakeTimers()
    vi.doMock('./serviceWorker', () => {
      throw new TypeError('Failed to fetch dynamically imported module')
    })
    const unhandled = vi.fn()
    process.on('unhandledRejection', unhandled)
    try {
      const { registerServiceWorkerLater } = await import('./index')
      registerServiceWorkerLater()
      await vi.advanceTimersByTimeAsync(2500)
      vi.useRealTimers()
      await new Promise((resolve) => setTimeout(resolve, 20))
      expect(unhandled).not.toHaveBeenCalled()
    } finally {
      process.off('unhandledRejection', unhandled)
    }
  })
})
