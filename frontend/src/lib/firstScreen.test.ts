import { describe, expect, it, vi } from 'vitest'

/** A fresh copy of the module: whether the first screen has shown is the page's state. */
async function freshFirstScreen() {
  vi.resetModules()
  return import('./firstScreen')
}

describe('issue 8 work a screen can do without waits for the first screen', () => {
  it('runs a task once the first screen has shown, once, and at once after that', async () => {
    const { afterFirstScreen, markFirstScreenShown } = await freshFirstScreen()
    const task = vi.fn(() => undefined)
    afterFirstScreen(task)
    expect(task).not.toHaveBeenCalled()
    markFirstScreenShown()
    markFirstScreenShown()
    expect(task).toHaveBeenCalledTimes(1)
    const later = vi.fn(() => undefined)
    afterFirstScreen(later)
    expect(later).toHaveBeenCalledTimes(1)
  })

  it('a cancelled task never runs, and a started one is cancelled with it', async () => {
    const { afterFirstScreen, markFirstScreenShown } = await freshFirstScreen()
    const never = vi.fn(() => undefined)
    afterFirstScreen(never)()
    const stopStarted = vi.fn()
    const cancel = afterFirstScreen(() => stopStarted)
    markFirstScreenShown()
    expect(never).not.toHaveBeenCalled()
    cancel()
    expect(stopStarted).toHaveBeenCalledTimes(1)
  })
})
