export {
  applyMask,
  caretAfterSlot,
  DEFAULT_PHONE_MASK,
  DEFAULT_PLACEHOLDER_CHAR,
  filledSlots,
  formatPhone,
  isMaskComplete,
  maskPlaceholder,
  slotCount,
  unmask,
} from './mask'
export type { PhoneInputProps } from './PhoneInput'
export { PhoneInput } from './PhoneInput'
