/** Onboarding answer ids (spec §3 'Onboarding answers'). */
import type { OnboardingAnswer } from './api'

export const ANSWER = {
  home: 132,
  car: 134,
  parent: 121,
  pet: 122,
  partner: 120,
  phone: 104,
  preferredEmail: 165,
  /** The address group: the address on one line, sent with its parts below. */
  address: 611,
  addressLine1: 148,
  addressLine2: 149,
  city: 150,
  state: 151,
  postalCode: 311,
  country: 313,
} as const

export const ONBOARDING_STEPS = 3

/**
 * The 611 address group's value: the filled parts (148 line 1, 149 line 2, 150 city, 151 state,
 * 311 postal code, 313 country) on one line, comma separated, as a concierge reads it and a
 * survey question pre-fills it; null when no part is filled.
 */
export function addressGroupLine(parts: ReadonlyArray<string | null | undefined>): string | null {
  const filled = parts.map((part) => part?.trim() ?? '').filter(Boolean)
  return filled.length > 0 ? filled.join(', ') : null
}

export interface LifeAnswer {
  id: number
  label: string
  description: string
}

/** Step 2's yes/no questions. */
export const LIFE_ANSWERS: readonly LifeAnswer[] = [
  { id: ANSWER.home, label: 'I own a home', description: 'Repairs, upkeep and home insurance' },
  {
    id: ANSWER.car,
    label: 'I have a car',
    description: 'Service, registration and auto insurance',
  },
  { id: ANSWER.parent, label: 'I’m a parent', description: 'Childcare, schools and activities' },
  { id: ANSWER.pet, label: 'I have a pet', description: 'Sitters, vets and pet insurance' },
  {
    id: ANSWER.partner,
    label: 'I have a partner',
    description: 'Date nights, gifts and plans for two',
  },
]

/** The stored value of one answer, if any. */
export function answerValue(answers: readonly OnboardingAnswer[], id: number): unknown {
  return answers.find((answer) => answer.answer_id === id)?.value
}

/** A stored answer as text for a form field ('' when missing). */
export function answerText(answers: readonly OnboardingAnswer[], id: number): string {
  const value = answerValue(answers, id)
  return typeof value === 'string' || typeof value === 'number' ? String(value) : ''
}
