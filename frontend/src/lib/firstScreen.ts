/**
 * Whether the app has rendered its first screen yet. Until then the document shows its own
 * skeleton (index.html), so the first screen's route loader may wait for the screen's data and
 * the screen renders once, complete; later screens render at once, with their own skeletons.
 */
let shown = false

export function markFirstScreenShown() {
  shown = true
}

export function firstScreenShown() {
  return shown
}
