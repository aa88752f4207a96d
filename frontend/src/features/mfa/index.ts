/**
 * Second factors an employee or concierge manages: the factor list and its calls, the
 * authenticator app's setup, recovery codes, and the rules of the codes' forms.
 */
export {
  FACTOR_LABELS,
  type FreshCheck,
  factorRemove,
  type MfaFactor,
  mfaFactorsQuery,
  passkeyRegister,
  passkeysSupported,
  recoveryCodesRegenerate,
  sessionConfirm,
} from './api'
export { RecoveryCodes } from './components/RecoveryCodes'
export { TotpSetup } from './components/TotpSetup'
export {
  type MfaCodeValues,
  type MfaPhoneValues,
  mfaCodeSchema,
  mfaPhoneSchema,
  recoveryCodeSchema,
  totpCodeSchema,
} from './rules'
