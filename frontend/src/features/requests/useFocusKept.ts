import { type RefObject, useEffect, useLayoutEffect, useRef } from 'react'

/** The attribute naming the request a list card opens (RequestCard's). */
const REQUEST_ID_ATTRIBUTE = 'data-request-id'

const SELECTED_TAB = '[role="tab"][aria-selected="true"]'

function requestIdOf(element: EventTarget | null): string {
  if (!(element instanceof Element)) return ''
  return element.closest(`[${REQUEST_ID_ATTRIBUTE}]`)?.getAttribute(REQUEST_ID_ATTRIBUTE) ?? ''
}

/**
 * Keeps keyboard focus inside `container` when a live update re-renders it. A card that moves
 * (from the queue to in progress) is a new element, and a card or tab that goes away takes the
 * focus with it, dropping a keyboard or screen-reader user at the top of the page: focus goes
 * back to the same request's card, else to the selected tab. A pointer press elsewhere, or focus
 * moved out of the container, means the person chose where focus is: nothing is restored then.
 */
export function useFocusKept(container: RefObject<HTMLElement | null>): void {
  // The request id of the focused card, '' for another element, null when focus is elsewhere.
  const focused = useRef<string | null>(null)

  useEffect(() => {
    const root = container.current
    if (!root) return
    const onFocusIn = (event: FocusEvent) => {
      focused.current = requestIdOf(event.target)
    }
    const onFocusOut = (event: FocusEvent) => {
      const next = event.relatedTarget
      if (next instanceof Node && !root.contains(next)) focused.current = null
    }
    const forget = () => {
      focused.current = null
    }
    root.addEventListener('focusin', onFocusIn)
    root.addEventListener('focusout', onFocusOut)
    document.addEventListener('pointerdown', forget, true)
    return () => {
      root.removeEventListener('focusin', onFocusIn)
      root.removeEventListener('focusout', onFocusOut)
      document.removeEventListener('pointerdown', forget, true)
    }
  }, [container])

  useLayoutEffect(() => {
    const root = container.current
    const requestId = focused.current
    if (!root || requestId === null) return
    const active = document.activeElement
    if (active && active !== document.body) return
    const card = requestId
      ? root.querySelector<HTMLElement>(`[${REQUEST_ID_ATTRIBUTE}="${requestId}"]`)
      : null
    ;(card ?? root.querySelector<HTMLElement>(SELECTED_TAB))?.focus()
  })
}
