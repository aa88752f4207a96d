/**
 * A ref that moves the focus to its element as it appears: a form replaced by what its submit
 * did would otherwise leave the focus on the page itself, and the news unread.
 */
export function focusOnMount(element: HTMLElement | null) {
  element?.focus()
}
