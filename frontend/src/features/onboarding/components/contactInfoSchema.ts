/** Step 3's rules (spec §5): all optional, but any address field makes the address required. */
import { z } from 'zod'
import { VALIDATION } from '@/lib/validation'

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

export const contactInfoSchema = z
  .object({
    phone: z.string().refine((digits) => digits === '' || /^\d{10}$/.test(digits), {
      message: VALIDATION.phoneInvalid,
    }),
    preferredEmail: z
      .string()
      .trim()
      .refine((email) => email === '' || z.email().safeParse(email).success, {
        message: VALIDATION.emailInvalid,
      }),
    addressLine1: z.string().trim(),
    addressLine2: z.string().trim(),
    city: z.string().trim(),
    state: z.string().trim(),
    postalCode: z.string().trim(),
    country: z.string().trim(),
  })
  .superRefine((values, ctx) => {
    if (!ADDRESS_FIELDS.some((field) => values[field] !== '')) return
    for (const field of REQUIRED_ADDRESS_FIELDS) {
      if (values[field] === '') {
        ctx.addIssue({ code: 'custom', path: [field], message: CONTACT_MESSAGES[field] })
      }
    }
  })

export type ContactInfoValues = z.infer<typeof contactInfoSchema>

/** True when any address field is filled, so the address fields are required. */
export function addressStarted(values: Partial<ContactInfoValues>): boolean {
  return ADDRESS_FIELDS.some((field) => (values[field] ?? '').trim() !== '')
}
