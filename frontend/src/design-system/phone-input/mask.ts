/**
 * Input masks (spec §5): in a mask, `9` is a digit, `a` a letter and `*` a letter or digit;
 * every other character is a literal. Unfilled slots show the placeholder character ('_' by default).
 */

export const DEFAULT_PHONE_MASK = '(999) 999-9999'
export const DEFAULT_PLACEHOLDER_CHAR = '_'

const SLOT_PATTERNS: Record<string, RegExp> = {
  '9': /^[0-9]$/,
  a: /^[A-Za-z]$/,
  '*': /^[A-Za-z0-9]$/,
}

export function isSlot(maskChar: string): boolean {
  return maskChar in SLOT_PATTERNS
}

function fits(maskChar: string, ch: string): boolean {
  return SLOT_PATTERNS[maskChar]?.test(ch) ?? false
}

/** Number of slots (characters the user types) in a mask. */
export function slotCount(mask: string): number {
  let n = 0
  for (const ch of mask) if (isSlot(ch)) n += 1
  return n
}

interface MaskWalk {
  value: string
  filled: number
}

function walk(mask: string, input: string, placeholderChar: string): MaskWalk {
  let out = ''
  let filled = 0
  let i = 0
  for (let m = 0; m < mask.length; m += 1) {
    const maskChar = mask[m]
    if (isSlot(maskChar)) {
      let placed = false
      while (i < input.length) {
        const ch = input[i]
        i += 1
        if (ch !== placeholderChar && fits(maskChar, ch)) {
          out += ch
          filled += 1
          placed = true
          break
        }
      }
      if (!placed) {
        // Input exhausted: show the rest of the mask with placeholders.
        if (filled === 0) return { value: '', filled: 0 }
        for (let r = m; r < mask.length; r += 1) out += isSlot(mask[r]) ? placeholderChar : mask[r]
        return { value: out, filled }
      }
    } else {
      if (input[i] === maskChar) i += 1
      out += maskChar
    }
  }
  return { value: filled === 0 ? '' : out, filled }
}

/**
 * Formats `input` (raw characters or an already, possibly partly, masked string) with `mask`.
 * Characters that do not fit a slot are dropped; extra characters are cut off.
 * Returns '' when no slot is filled, so an empty field stays empty.
 *
 * applyMask('(999) 999-9999', '5551234') === '(555) 123-4___'
 */
export function applyMask(
  mask: string,
  input: string,
  placeholderChar: string = DEFAULT_PLACEHOLDER_CHAR,
): string {
  return walk(mask, input ?? '', placeholderChar).value
}

/**
 * The characters the user typed into the slots of a masked value, without literals or placeholders.
 *
 * unmask('(999) 999-9999', '(555) 123-4___') === '5551234'
 */
export function unmask(
  mask: string,
  value: string,
  placeholderChar: string = DEFAULT_PLACEHOLDER_CHAR,
): string {
  const masked = applyMask(mask, value ?? '', placeholderChar)
  let raw = ''
  for (let m = 0; m < masked.length; m += 1) {
    if (isSlot(mask[m]) && masked[m] !== placeholderChar) raw += masked[m]
  }
  return raw
}

/** True when every slot of the mask is filled. */
export function isMaskComplete(
  mask: string,
  value: string,
  placeholderChar: string = DEFAULT_PLACEHOLDER_CHAR,
): boolean {
  return unmask(mask, value, placeholderChar).length === slotCount(mask)
}

/** The mask shown as a placeholder: '(999) 999-9999' → '(___) ___-____'. */
export function maskPlaceholder(
  mask: string,
  placeholderChar: string = DEFAULT_PLACEHOLDER_CHAR,
): string {
  let out = ''
  for (const ch of mask) out += isSlot(ch) ? placeholderChar : ch
  return out
}

/** How many slots `input` fills once masked (used to keep the caret in place while formatting). */
export function filledSlots(
  mask: string,
  input: string,
  placeholderChar: string = DEFAULT_PLACEHOLDER_CHAR,
): number {
  return walk(mask, input, placeholderChar).filled
}

/**
 * Caret index in a masked value once n slots are filled: at the next slot, past any literals
 * (n = 0 → the first slot; all filled → the end).
 */
export function caretAfterSlot(mask: string, n: number): number {
  let seen = 0
  for (let m = 0; m < mask.length; m += 1) {
    if (isSlot(mask[m])) {
      if (seen === n) return m
      seen += 1
    }
  }
  return mask.length
}

/**
 * A stored phone number shown the way the phone field writes it: ten digits as
 * '(555) 123-4567'; anything else as it was given.
 */
export function formatPhone(value: string): string {
  const digits = value.replace(/\D/g, '')
  return digits.length === slotCount(DEFAULT_PHONE_MASK)
    ? applyMask(DEFAULT_PHONE_MASK, digits)
    : value
}
