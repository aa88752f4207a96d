/** The second factor's form rules (spec §5): an SMS, authenticator or recovery code, a phone. */
import { VALIDATION } from '@/lib/formRules'
import { matches, required, schema } from '@/lib/validation'

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
