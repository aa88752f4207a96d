/** The spec's §5 form rules and messages for the sign-in family of screens. */
import { z } from 'zod'

export const VALIDATION = {
  emailRequired: 'Please enter your email address',
  emailInvalid: 'Please enter a valid email address',
  passwordRequired: 'Please enter your password',
  passwordInvalid: 'Please enter a valid password',
  firstNameRequired: 'Please enter your first name',
  lastNameRequired: 'Please enter your last name',
  companyCodeRequired: 'Please enter your company code',
  newPasswordRequired: 'Please enter a new password',
  confirmPasswordRequired: 'Please confirm your new password',
  passwordsDoNotMatch: 'Passwords do not match',
  codeRequired: 'Please enter the verification code sent to your phone number',
  codeInvalid: 'Please enter a valid verification code',
  phoneInvalid: 'Please enter a valid phone number',
} as const

export const PASSWORD_MIN = 6
export const PASSWORD_MAX = 128

export const emailField = z
  .string()
  .trim()
  .min(1, VALIDATION.emailRequired)
  .pipe(z.email(VALIDATION.emailInvalid))

/** Password length 6 to 128 (spec §9), with the given 'required' message. */
export function passwordField(requiredMessage: string = VALIDATION.passwordRequired) {
  return z
    .string()
    .min(1, requiredMessage)
    .min(PASSWORD_MIN, VALIDATION.passwordInvalid)
    .max(PASSWORD_MAX, VALIDATION.passwordInvalid)
}

export const signInSchema = z.object({
  email: emailField,
  password: passwordField(),
})
export type SignInValues = z.infer<typeof signInSchema>

export const mfaCodeSchema = z.object({
  code: z
    .string()
    .trim()
    .min(1, VALIDATION.codeRequired)
    .regex(/^\d{6}$/, VALIDATION.codeInvalid),
})
export type MfaCodeValues = z.infer<typeof mfaCodeSchema>

export const mfaPhoneSchema = z.object({
  phone: z.string().regex(/^\d{10}$/, VALIDATION.phoneInvalid),
})
export type MfaPhoneValues = z.infer<typeof mfaPhoneSchema>

export const forgotPasswordSchema = z.object({ email: emailField })
export type ForgotPasswordValues = z.infer<typeof forgotPasswordSchema>

export const resetPasswordSchema = z
  .object({
    password: passwordField(VALIDATION.newPasswordRequired),
    confirmation: passwordField(VALIDATION.confirmPasswordRequired),
  })
  .refine((values) => values.password === values.confirmation, {
    message: VALIDATION.passwordsDoNotMatch,
    path: ['confirmation'],
  })
export type ResetPasswordValues = z.infer<typeof resetPasswordSchema>

export function signUpSchema(needsCompanyCode: boolean) {
  return z.object({
    firstName: z.string().trim().min(1, VALIDATION.firstNameRequired),
    lastName: z.string().trim().min(1, VALIDATION.lastNameRequired),
    email: emailField,
    password: passwordField(),
    companyCode: needsCompanyCode
      ? z.string().trim().min(1, VALIDATION.companyCodeRequired)
      : z.string().optional(),
  })
}
export type SignUpValues = z.infer<ReturnType<typeof signUpSchema>>
