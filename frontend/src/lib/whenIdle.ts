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
