/**
 * Runs `task` once the browser is idle (after the current screen has painted), for work a
 * screen can do without: it then never competes with what the screen shows first. Returns a
 * cancel function, so an effect can return it.
 */
export function whenIdle(task: () => unknown): () => void {
  if (typeof window.requestIdleCallback === 'function') {
    const handle = window.requestIdleCallback(() => void task(), { timeout: 2_000 })
    return () => window.cancelIdleCallback(handle)
  }
  const handle = window.setTimeout(() => void task(), 200)
  return () => window.clearTimeout(handle)
}

/**
 * Runs `task` `delayMs` from now, once the browser is idle then: for work that should not even
 * share the network with the data and code the screen is still receiving as it paints.
 */
export function whenIdleAfter(delayMs: number, task: () => unknown): () => void {
  let cancelIdle = () => {}
  const timer = window.setTimeout(() => {
    cancelIdle = whenIdle(task)
  }, delayMs)
  return () => {
    window.clearTimeout(timer)
    cancelIdle()
  }
}
