/** Minimum horizontal swipe distance that changes tab (spec §9). */
export const TAB_SWIPE_THRESHOLD_PX = 50

/** The share of the visible tab strip one press of a scroll button moves (spec §9). */
export const TAB_SCROLL_STEP = 0.8

/** How far a scroll button moves a tab strip `visibleWidth` px wide: 80 % of it. */
export function tabScrollDistance(visibleWidth: number): number {
  return Math.round(visibleWidth * TAB_SCROLL_STEP)
}

/** The tab id for a label: every non-word character becomes '_' ('To do (3)' → 'To_do__3_'). */
export function tabIdFromLabel(label: string): string {
  return label.replace(/\W/g, '_')
}

/**
 * The tab index after a horizontal swipe of `deltaX` px (end x − start x) on a panel.
 * Swiping left (deltaX ≤ −50, content moves left to reveal what is on the right) goes forward
 * to the next tab; swiping right (deltaX ≥ 50) goes back. Bounded by the first and last tab;
 * shorter swipes keep the current tab.
 */
export function nextTabIndexForSwipe(
  current: number,
  count: number,
  deltaX: number,
  threshold: number = TAB_SWIPE_THRESHOLD_PX,
): number {
  if (count <= 0) return 0
  const clamped = Math.min(Math.max(current, 0), count - 1)
  if (deltaX <= -threshold) return Math.min(clamped + 1, count - 1)
  if (deltaX >= threshold) return Math.max(clamped - 1, 0)
  return clamped
}
