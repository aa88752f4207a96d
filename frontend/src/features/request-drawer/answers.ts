/**
 * Pure helpers for survey answers: when an answer is complete enough to send (spec §5
 * 'Survey answers'), and how a freshly given answer reads before the server echoes it.
 */
import { applyMask, DEFAULT_PHONE_MASK } from '@/design-system'
import type { SelectOption } from './api'

/** Spec §4: how a skipped optional question is shown. */
export const QUESTION_SKIPPED = 'Question Skipped'

export const PHONE_DIGITS = 10
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/

/** Spec §5 sign-in texts, reused for the email question. */
export const INVALID_EMAIL_MESSAGE = 'Please enter a valid email address'
export const INVALID_PHONE_MESSAGE = 'Please enter a valid phone number'

export function phoneDigits(value: string | null | undefined): string {
  return (value ?? '').replace(/\D/g, '').slice(-PHONE_DIGITS)
}

/** Continue is disabled until there is an answer (or an uploaded file). */
export function isAnswerReady(type: string, value: string): boolean {
  switch (type) {
    case 'PhoneNumberInput':
      return phoneDigits(value).length === PHONE_DIGITS
    case 'SingleSelectInput':
    case 'SingleUploadInput':
      return value !== ''
    default:
      return value.trim() !== ''
  }
}

/** A client-side check before sending; returns the message to show, or null. */
export function answerProblem(type: string, value: string): string | null {
  if (type === 'ManagedEmailInput' && !EMAIL_PATTERN.test(value.trim())) {
    return INVALID_EMAIL_MESSAGE
  }
  if (type === 'PhoneNumberInput' && phoneDigits(value).length !== PHONE_DIGITS) {
    return INVALID_PHONE_MESSAGE
  }
  return null
}

/** The value sent to the server: trimmed text, phone digits, option value, upload key. */
export function answerPayload(type: string, value: string): string {
  if (type === 'PhoneNumberInput') return phoneDigits(value)
  if (type === 'SingleSelectInput' || type === 'SingleUploadInput') return value
  return value.trim()
}

export function formatPhone(digits: string): string {
  return applyMask(DEFAULT_PHONE_MASK, phoneDigits(digits), '_')
}

/**
 * How an answer reads in the conversation: 'Question Skipped', an option's label, a formatted
 * phone number, a file name (`fileName`), or the text itself.
 */
export function displayAnswer(
  type: string,
  value: string | null,
  { options = [], fileName }: { options?: SelectOption[]; fileName?: string } = {},
): string {
  if (value === null) return QUESTION_SKIPPED
  switch (type) {
    case 'SingleSelectInput':
      return options.find((option) => option.value === value)?.label ?? value
    case 'PhoneNumberInput':
      return formatPhone(value)
    case 'SingleUploadInput':
      return fileName ?? value
    default:
      return value
  }
}
