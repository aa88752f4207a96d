import { type RefObject, useEffect } from 'react'

/** Where a key press belongs to what is being typed, not to the queue. */
function typing(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false
  return target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName)
}

/** The queue's request links the concierge can see now (the table on wide screens, else the cards). */
export function visibleRequestLinks(list: HTMLElement): HTMLAnchorElement[] {
  const links = list.querySelectorAll<HTMLAnchorElement>('[data-request-id] a[href]')
  // checkVisibility: false inside a part the layout hides (the table on phones, the cards on wide screens).
  return [...links].filter((link) => link.checkVisibility?.() ?? true)
}

/**
 * The queue's keys, as mail and issue trackers have them: `/` goes to the search box; `j` and
 * `k` move to the next and the previous request (from the first when none has the focus), and
 * Enter opens it. Not while typing, and not with a modifier (the browser's own shortcuts).
 */
export function useQueueShortcuts(
  search: RefObject<HTMLInputElement | null>,
  list: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
      if (typing(event.target)) return
      if (event.key === '/') {
        event.preventDefault()
        search.current?.focus()
        search.current?.select()
        return
      }
      if (event.key !== 'j' && event.key !== 'k') return
      const links = list.current ? visibleRequestLinks(list.current) : []
      if (links.length === 0) return
      event.preventDefault()
      const at = links.indexOf(document.activeElement as HTMLAnchorElement)
      const next = at === -1 ? 0 : at + (event.key === 'j' ? 1 : -1)
      const link = links[Math.min(Math.max(next, 0), links.length - 1)]
      link.focus() // which scrolls it into view
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [search, list])
}
