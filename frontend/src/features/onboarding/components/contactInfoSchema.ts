/** Step 3's rules (spec §5): all optional, but any address field makes the address required. */
import { VALIDATION } from '@/lib/formRules'
import { isEmail, matches, schema } from '@/lib/validation'

export const CONTACT_MESSAGES = {
  addressLine1: 'Please enter your address',
  city: 'Please enter your city',
  state: 'Please enter your state',
  postalCode: 'Please enter your postal code',
  country: 'Please enter your country',
} as const

const ADDRESS_FIELDS = [
  'addressLine1',
  'addressLine2',
  'city',
  'state',
  'postalCode',
  'country',
] as const
const REQUIRED_ADDRESS_FIELDS = ['addressLine1', 'city', 'state', 'postalCode', 'country'] as const

export type ContactInfoValues = {
  phone: string
  preferredEmail: string
  addressLine1: string
  addressLine2: string
  city: string
  state: string
  postalCode: string
  country: string
}

export const contactInfoSchema = schema<ContactInfoValues>(
  {
    phone: [
      (digits) =>
        digits === '' ? undefined : matches(/^\d{10}$/, VALIDATION.phoneInvalid)(digits),
    ],
    preferredEmail: [
      (email) => (email === '' || isEmail(email) ? undefined : VALIDATION.emailInvalid),
    ],
  },
  {
    trim: ['preferredEmail', ...ADDRESS_FIELDS],
    refine: (values) => {
      if (!ADDRESS_FIELDS.some((field) => values[field] !== '')) return {}
      const missing = REQUIRED_ADDRESS_FIELDS.filter((field) => values[field] === '')
      return Object.fromEntries(missing.map((field) => [field, CONTACT_MESSAGES[field]]))
    },
  },
)

/** True when any address field is filled, so the address fields are required. */
export function addressStarted(values: Partial<ContactInfoValues>): boolean {
  return ADDRESS_FIELDS.some((field) => (values[field] ?? '').trim() !== '')
}
