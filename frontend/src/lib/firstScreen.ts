/**
 * Whether the app has rendered its first screen yet. Until then the document shows its own
 * skeleton (index.html), so the first screen's route loader may wait for the screen's data and
 * the screen renders once, complete; later screens render at once, with their own skeletons.
 */
let shown = false
const waiting = new Set<() => void>()

export function markFirstScreenShown() {
  if (shown) return
  shown = true
  for (const run of waiting) run()
  waiting.clear()
}

export function firstScreenShown() {
  return shown
}

/**
 * Runs `task` once the first screen has shown (at once if it has). `task` may return a cancel
 * function of its own; the returned function cancels either way, so an effect can return it.
 */
export function afterFirstScreen(task: () => (() => void) | undefined): () => void {
  let cancelTask: (() => void) | undefined
  const run = () => {
    cancelTask = task()
  }
  if (shown) run()
  else waiting.add(run)
  return () => {
    waiting.delete(run)
    cancelTask?.()
  }
}
