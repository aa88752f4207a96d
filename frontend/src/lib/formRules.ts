/** The spec's §5 form rules and messages for the sign-in family of screens. */
import { email, matches, maxLength, minLength, type Rule, required, schema } from '@/lib/validation'

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

export type MfaCodeValues = { code: string }
export const mfaCodeSchema = schema<MfaCodeValues>(
  { code: [required(VALIDATION.codeRequired), matches(/^\d{6}$/, VALIDATION.codeInvalid)] },
  { trim: ['code'] },
)

/** An authenticator app's 6-digit code (not part of the spec's SMS flow). */
export const totpCodeSchema = schema<MfaCodeValues>(
  {
    code: [
      required('Please enter the code from your authenticator app'),
      matches(/^\d{6}$/, VALIDATION.codeInvalid),
    ],
  },
  { trim: ['code'] },
)

/** A recovery code: ten letters or digits, with or without the dash. */
export const recoveryCodeSchema = schema<MfaCodeValues>(
  {
    code: [
      required('Please enter one of your recovery codes'),
      matches(/^[A-Za-z0-9]{5}-?[A-Za-z0-9]{5}$/, 'Please enter a valid recovery code'),
    ],
  },
  { trim: ['code'] },
)

export type MfaPhoneValues = { phone: string }
export const mfaPhoneSchema = schema<MfaPhoneValues>({
  phone: [matches(/^\d{10}$/, VALIDATION.phoneInvalid)],
})

export type ForgotPasswordValues = { email: string }
export const forgotPasswordSchema = schema<ForgotPasswordValues>(
  { email: emailRules },
  { trim: ['email'] },
)

export type ResetPasswordValues = { password: string; confirmation: string }
export const resetPasswordSchema = schema<ResetPasswordValues>(
  {
    password: passwordRules(VALIDATION.newPasswordRequired),
    confirmation: passwordRules(VALIDATION.confirmPasswordRequired),
  },
  {
    refine: (values) =>
      values.password === values.confirmation
        ? {}
        : { confirmation: VALIDATION.passwordsDoNotMatch },
  },
)

export type SignUpValues = {
  firstName: string
  lastName: string
  email: string
  password: string
}
export function signUpSchema() {
  return schema<SignUpValues>(
    {
      firstName: [required(VALIDATION.firstNameRequired)],
      lastName: [required(VALIDATION.lastNameRequired)],
      email: emailRules,
      password: passwordRules(),
    },
    { trim: ['firstName', 'lastName', 'email'] },
  )
}
