import { afterEach, describe, expect, it, vi } from 'vitest'
import { whenIdleAfter } from './whenIdle'

describe('issue 8 work a screen can do without starts late and when idle', () => {
  afterEach(() => vi.useRealTimers())

  it('whenIdleAfter waits out its delay, then for the browser to be idle', () => {
    vi.useFakeTimers()
    const task = vi.fn()
    whenIdleAfter(1_000, task)
    vi.advanceTimersByTime(999)
    expect(task).not.toHaveBeenCalled()
    vi.advanceTimersByTime(1)
    expect(task).not.toHaveBeenCalled()
    vi.runAllTimers()
    expect(task).toHaveBeenCalledTimes(1)
    const cancelled = vi.fn()
    whenIdleAfter(1_000, cancelled)()
    vi.runAllTimers()
    expect(cancelled).not.toHaveBeenCalled()
  })
})
