/**
 * A count shown before the page title, '(2) Concierge | Requests' (the signed-in shell puts the
 * number of requests with an unread reply there), so a background tab says something is waiting.
 * The title itself is the route's (RootLayout); this only holds the number.
 */
import { useSyncExternalStore } from 'react'

let current = 0
const listeners = new Set<() => void>()

export function setTitleCount(count: number): void {
  if (count === current) return
  current = count
  for (const listener of listeners) listener()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useTitleCount(): number {
  return useSyncExternalStore(subscribe, () => current)
}

/** The title with the count before it: '(2) Concierge | Requests'; as it is for 0. */
export function titleWithCount(title: string, count: number): string {
  return count > 0 ? `(${count}) ${title}` : title
}
