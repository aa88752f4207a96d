import { TextInput } from '@/design-system'
import type { FreshCheck } from '@/features/mfa'

export const PROOF_MESSAGES = {
  password: 'Please enter your password',
  code: 'Please enter a code',
} as const

/** The fresh proof a sensitive change asks for, as the API takes it. */
export function freshCheck(useCode: boolean, value: string): FreshCheck {
  return useCode ? { code: value.trim() } : { password: value }
}

/**
 * The current password, or a code from an authenticator app or a recovery code, asked again
 * before a sensitive change; `onToggle` switches between the two.
 */
export function ProofField({
  useCode,
  onToggle,
  error,
  passwordLabel = 'Current password',
  ...field
}: {
  useCode: boolean
  passwordLabel?: string
  onToggle: () => void
  error?: string
  name: string
  defaultValue?: string
  value?: string
  autoFocus?: boolean
  onChange: (event: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void
}) {
  return (
    <div className="flex flex-col gap-1">
      <TextInput
        key={useCode ? 'code' : 'password'}
        label={useCode ? 'Authenticator or recovery code' : passwordLabel}
        type={useCode ? 'text' : 'password'}
        autoComplete={useCode ? 'one-time-code' : 'current-password'}
        required
        error={error}
        {...field}
      />
      <button
        type="button"
        onClick={onToggle}
        className="self-start rounded text-sm font-semibold text-primary-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
      >
        {useCode ? 'Use your password instead' : 'Use a code instead'}
      </button>
    </div>
  )
}
