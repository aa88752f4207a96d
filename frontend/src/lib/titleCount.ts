/**
 * What the page title holds beside the route's own title (RootLayout): a count shown before it,
 * '(2) Concierge | Requests' (the signed-in shell puts the number of requests with an unread
 * reply there), so a background tab says something is waiting; and a screen's own title for
 * what it shows ('#2 Get a handyman · Nora'), in place of the route's while the screen is up.
 */
import { useEffect, useSyncExternalStore } from 'react'

let current = 0
let screenTitle: string | undefined
const listeners = new Set<() => void>()

function changed(): void {
  for (const listener of listeners) listener()
}

export function setTitleCount(count: number): void {
  if (count === current) return
  current = count
  changed()
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useTitleCount(): number {
  return useSyncExternalStore(subscribe, () => current)
}

/**
 * Names the page after what the screen shows while it is mounted (undefined: the route's
 * title). Only the document's title: page-view analytics and the route announcer keep the
 * route's, so no request's name or person's name leaves for analytics.
 */
export function useScreenTitle(title: string | undefined): void {
  useEffect(() => {
    screenTitle = title
    changed()
    return () => {
      screenTitle = undefined
      changed()
    }
  }, [title])
}

export function useScreenTitleValue(): string | undefined {
  return useSyncExternalStore(subscribe, () => screenTitle)
}

/** The title with the count before it: '(2) Concierge | Requests'; as it is for 0. */
export function titleWithCount(title: string, count: number): string {
  return count > 0 ? `(${count}) ${title}` : title
}
