import { type RefObject, useEffect, useRef } from 'react'

/** The keys that choose an option: '1' for the first, up to '9'. */
export const NUMBER_KEYS = ['1', '2', '3', '4', '5', '6', '7', '8', '9'] as const

/** Inputs that type text: number keys there are text, never a choice. */
const CHOICE_INPUTS = new Set(['radio', 'checkbox', 'button', 'submit', 'reset', 'file', 'range'])

function typesText(element: Element | null): boolean {
  if (!element) return false
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true
  if (element instanceof HTMLInputElement) return !CHOICE_INPUTS.has(element.type)
  return element instanceof HTMLElement && element.isContentEditable
}

/**
 * Number keys choose a choice question's option (1 the first, up to 9), as Typeform's letters
 * do, unless the focus is in a text field. The form being asked (`primary`) takes the keys
 * pressed anywhere in its drawer; a form editing an earlier answer only those pressed while the
 * focus is inside it. Keys pressed in a dialog over the drawer (a confirmation) are left alone.
 * The chosen option's radio takes the focus, so the arrow keys carry on from it.
 */
export function useNumberKeys({
  formRef,
  values,
  onPick,
  enabled,
  primary,
}: {
  formRef: RefObject<HTMLElement | null>
  values: readonly string[]
  onPick: (value: string) => void
  enabled: boolean
  primary: boolean
}) {
  const pick = useRef(onPick)
  pick.current = onPick

  useEffect(() => {
    if (!enabled || values.length === 0) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return
      if (event.isComposing) return
      const index = NUMBER_KEYS.indexOf(event.key as (typeof NUMBER_KEYS)[number])
      const form = formRef.current
      if (index < 0 || index >= values.length || !form) return
      const active = document.activeElement
      if (typesText(active)) return
      if (active && form.contains(active)) {
        // The focus is in this form: the keys are its own.
      } else if (!primary || active?.closest('[data-number-keys]')) {
        return
      } else if (active && active !== document.body) {
        const drawer = form.closest('[role="dialog"]')
        if (drawer && !drawer.contains(active)) return
      }
      event.preventDefault()
      pick.current(values[index])
      form.querySelectorAll<HTMLInputElement>('input[type="radio"]')[index]?.focus()
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [formRef, values, enabled, primary])
}
