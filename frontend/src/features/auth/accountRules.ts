/** The account pages' form rules (spec §5): sign-up, forgotten and new password. */
import { emailRules, passwordRules, VALIDATION } from '@/lib/formRules'
import { required, schema } from '@/lib/validation'

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
