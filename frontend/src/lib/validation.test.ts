import { describe, expect, it } from 'vitest'
import { email, minLength, required, schema } from './validation'

type Values = { email: string; password: string; confirmation: string }

const check = schema<Values>(
  {
    email: [required('Email required'), email('Email invalid')],
    password: [required('Password required'), minLength(6, 'Password too short')],
  },
  {
    trim: ['email'],
    refine: (values) =>
      values.password === values.confirmation ? {} : { confirmation: 'Passwords differ' },
  },
)

describe('Issue 8: form validation without zod (no eval under the CSP)', () => {
  it('gives the first failing message of each field, in rule order', () => {
    expect(check({ email: '', password: '', confirmation: '' }).errors).toEqual({
      email: 'Email required',
      password: 'Password required',
    })
    expect(check({ email: 'nope', password: 'abc', confirmation: 'abc' }).errors).toEqual({
      email: 'Email invalid',
      password: 'Password too short',
    })
  })

  it('trims the listed fields before checking and submitting', () => {
    const result = check({
      email: '  dana@example.com ',
      password: 'secret1',
      confirmation: 'secret1',
    })
    expect(result.errors).toEqual({})
    expect(result.values.email).toBe('dana@example.com')
  })

  it('checks across fields only once every field passed its own rules', () => {
    expect(check({ email: 'x', password: 'secret1', confirmation: 'other' }).errors).toEqual({
      email: 'Email invalid',
    })
    expect(
      check({ email: 'dana@example.com', password: 'secret1', confirmation: 'other' }).errors,
    ).toEqual({ confirmation: 'Passwords differ' })
  })

  it('accepts the addresses the old rules accepted and refuses the rest', () => {
    const valid = ['dana@example.com', "o'brien+tag@mail.example.co.uk", 'a_b-c@x-y.io']
    const invalid = [
      'dana',
      'dana@',
      '@example.com',
      'dana@example',
      '.dana@example.com',
      'da..na@example.com',
    ]
    for (const value of valid)
      expect(check({ email: value, password: 'secret1', confirmation: 'secret1' }).errors).toEqual(
        {},
      )
    for (const value of invalid) {
      expect(
        check({ email: value, password: 'secret1', confirmation: 'secret1' }).errors.email,
      ).toBe('Email invalid')
    }
  })
})
