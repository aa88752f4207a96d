import { describe, expect, it } from 'vitest'
import {
  answerPayload,
  answerProblem,
  displayAnswer,
  isAnswerReady,
  QUESTION_SKIPPED,
} from './answers'

describe('survey answer helpers', () => {
  it('§5 survey answers: an answer is ready only when there is one (10 digits for a phone)', () => {
    expect(isAnswerReady('TextInput', '')).toBe(false)
    expect(isAnswerReady('TextInput', '   ')).toBe(false)
    expect(isAnswerReady('MultilineTextInput', 'hi')).toBe(true)
    expect(isAnswerReady('PhoneNumberInput', '555123456')).toBe(false)
    expect(isAnswerReady('PhoneNumberInput', '5551234567')).toBe(true)
    expect(isAnswerReady('SingleSelectInput', '')).toBe(false)
    expect(isAnswerReady('SingleSelectInput', 'yes')).toBe(true)
    expect(isAnswerReady('SingleUploadInput', '')).toBe(false)
    expect(isAnswerReady('SingleUploadInput', 'uploads/key')).toBe(true)
  })

  it('§5 survey answers: the email question is checked before sending', () => {
    expect(answerProblem('ManagedEmailInput', 'nope')).toBe('Please enter a valid email address')
    expect(answerProblem('ManagedEmailInput', ' jane@example.com ')).toBeNull()
    expect(answerProblem('TextInput', 'anything')).toBeNull()
  })

  it('§3 answer payload: trimmed text, phone digits, option values and upload keys as given', () => {
    expect(answerPayload('TextInput', '  hello ')).toBe('hello')
    expect(answerPayload('PhoneNumberInput', '(555) 123-4567')).toBe('5551234567')
    expect(answerPayload('SingleSelectInput', 'this_week')).toBe('this_week')
    expect(answerPayload('SingleUploadInput', 'uploads/a b.pdf')).toBe('uploads/a b.pdf')
  })

  it("§4 request drawer: display values ('Question Skipped', option label, masked phone, file name)", () => {
    expect(displayAnswer('TextInput', null)).toBe(QUESTION_SKIPPED)
    expect(QUESTION_SKIPPED).toBe('Question Skipped')
    expect(
      displayAnswer('SingleSelectInput', 'b', { options: [{ label: 'Bee', value: 'b' }] }),
    ).toBe('Bee')
    expect(displayAnswer('PhoneNumberInput', '5551234567')).toBe('(555) 123-4567')
    expect(displayAnswer('SingleUploadInput', 'uploads/k', { fileName: 'lease.pdf' })).toBe(
      'lease.pdf',
    )
    expect(displayAnswer('MultilineTextInput', 'line 1\nline 2')).toBe('line 1\nline 2')
  })
})
