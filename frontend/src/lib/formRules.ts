/**
 * The spec's §5 form rules and messages for the sign-in family of screens, and the sign-in
 * form's own; the second factor's are in features/mfa/rules.ts, the other account pages' in
 * features/auth/accountRules.ts (so the sign-in page loads only its own).
 */
import { email, maxLength, minLength, type Rule, required, schema } from '@/lib/validation'

export const VALIDATION = {
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Please enter your password',
  passwordInvalid: 'Please enter a valid password',
  firstNameRequired: 'Please enter your first name',
  lastNameRequired: 'Please enter your last name',
  newPasswordRequired: 'Please enter a new password',
  confirmPasswordRequired: 'Please confirm your new password',
  passwordsDoNotMatch: 'Passwords do not match',
  codeRequired: 'Please enter the verification code sent to your phone number',
  codeInvalid: 'Please enter a valid verification code',
  phoneInvalid: 'Please enter a valid phone number',
} as const

export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 128

/** Email: required, then a valid address (checked after trimming). */
export const emailRules: Rule[] = [
  required(VALIDATION.emailRequired),
  email(VALIDATION.emailInvalid),
]

/** Password length 6 to 128 (spec §9), with the given 'required' message. */
export function passwordRules(requiredMessage: string = VALIDATION.passwordRequired): Rule[] {
  return [
    required(requiredMessage),
    minLength(PASSWORD_MIN, VALIDATION.passwordInvalid),
    maxLength(PASSWORD_MAX, VALIDATION.passwordInvalid),
  ]
}

export type SignInValues = { email: string; password: string }
export const signInSchema = schema<SignInValues>(
  { email: emailRules, password: passwordRules() },
  { trim: ['email'] },
)
