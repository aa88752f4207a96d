/** Signing up, in and out, and the account pages reached by link; what other features share. */
export { type ResetPasswordValues, resetPasswordSchema } from './accountRules'
export { NewPasswordFields } from './components/NewPasswordFields'
