import { useCallback, useEffect, useRef, useState } from 'react'
import { type Location, useLocation, useNavigate } from 'react-router'

/** The key of a history entry's state that names the drawer open in it (one at a time). */
const DRAWER_KEY = 'drawer'

/** Which drawer an entry holds, and which of its openings. */
interface DrawerEntry {
  name: string
  opening: string
}

type EntryState = Record<string, unknown> & { [DRAWER_KEY]?: DrawerEntry }

function isEntryState(state: unknown): state is EntryState {
  return typeof state === 'object' && state !== null
}

function drawerEntryIn(state: unknown): DrawerEntry | null {
  return (isEntryState(state) && state[DRAWER_KEY]) || null
}

/** The page's own state in an entry, without any drawer. */
function pageState(state: unknown): Record<string, unknown> {
  if (!isEntryState(state)) return {}
  const { [DRAWER_KEY]: _drawer, ...page } = state
  return page
}

function addressOf({ pathname, search, hash }: Location) {
  return { pathname, search, hash }
}

let openings = 0
/** The openings of this page load: an entry naming another one was made before a reload. */
const openedHere = new Set<string>()

/** Unique beyond this page load too: the history keeps its entries across a reload. */
function newOpening(): string {
  openings += 1
  const opening = `${Date.now().toString(36)}-${openings}`
  openedHere.add(opening)
  return opening
}

export interface DrawerHistory<T> {
  /** What the drawer shows, or null while it is closed. */
  value: T | null
  open: (value: T) => void
  close: () => void
}

/**
 * A drawer that the browser's Back button closes, as people expect on phones and desktops.
 * Opening it adds a history entry at the same address that names the drawer, so Back leaves
 * that entry and the drawer with it, and the page stays. Closing it any other way goes back
 * over that entry, so none is left behind. Any other navigation lands on an entry without the
 * drawer, which closes it; a drawer opened from another takes the other's entry, so one Back
 * closes it. The value stays in memory (it may hold callbacks, which history state cannot), so
 * an entry left from before a reload cannot show its drawer again: landing on one steps back
 * over it, so that the next Back leaves the page as people expect.
 */
export function useDrawerHistory<T>(name: string): DrawerHistory<T> {
  const location = useLocation()
  const navigate = useNavigate()
  const [shown, setShown] = useState<{ opening: string; value: T } | null>(null)
  const entry = drawerEntryIn(location.state)
  const value = entry?.name === name && entry.opening === shown?.opening ? shown.value : null
  const wentBackFrom = useRef<string | null>(null)
  const fromBeforeReload = entry?.name === name && !openedHere.has(entry.opening)

  useEffect(() => {
    if (!fromBeforeReload || wentBackFrom.current === location.key) return
    wentBackFrom.current = location.key
    navigate(-1)
  }, [fromBeforeReload, location.key, navigate])

  const open = useCallback(
    (next: T) => {
      const opening = newOpening()
      setShown({ opening, value: next })
      navigate(addressOf(location), {
        state: { ...pageState(location.state), [DRAWER_KEY]: { name, opening } },
        replace: entry !== null,
        preventScrollReset: true,
        // Nothing the page's loaders read has changed.
        defaultShouldRevalidate: false,
      })
    },
    [location, entry, name, navigate],
  )

  const close = useCallback(() => {
    // A second close before the first has landed would go back past the page.
    if (value === null || wentBackFrom.current === location.key) return
    wentBackFrom.current = location.key
    navigate(-1)
  }, [value, location.key, navigate])

  return { value, open, close }
}
