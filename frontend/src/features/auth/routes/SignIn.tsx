import { useQueryClient } from '@tanstack/react-query'
import { useState } from 'react'
import { useForm } from 'react-hook-form'
import { useNavigate } from 'react-router'
import { Button, FormError, Link, Paragraph, TextInput } from '@/design-system'
import { resolvePostLoginPath, signOut } from '@/lib/currentUser'
import { unexpectedError } from '@/lib/errors'
import { type SignInValues, signInSchema } from '@/lib/formRules'
import { useSession } from '@/lib/session'
import { schemaResolver } from '@/lib/validation'
import { signIn } from '../api/auth'
import { AuthHeader } from '../components/AuthHeader'
import { MfaCodeForm } from '../components/MfaCodeForm'
import { SupportLink } from '../components/SupportLink'

/** SignIn (spec §2, §4): email and password, then the code form when MFA is required. */
export default function SignIn() {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const { mfaRequired } = useSession()
  const [codeStep, setCodeStep] = useState(false)
  // The return target, else the user's home (the concierge desk for a concierge).
  const goOn = async () => {
    const path = await resolvePostLoginPath(queryClient)
    void navigate(path, { replace: true })
  }

  if (mfaRequired || codeStep) {
    return <CodeStep onVerified={goOn} onCancel={() => setCodeStep(false)} />
  }
  return (
    <PasswordStep
      onMfaRequired={() => setCodeStep(true)}
      onMfaEnrollment={() => navigate('/mfa-enrollment', { replace: true })}
      onSignedIn={goOn}
    />
  )
}

interface PasswordStepProps {
  onMfaRequired: () => void
  onMfaEnrollment: () => void
  onSignedIn: () => Promise<void>
}

function PasswordStep({ onMfaRequired, onMfaEnrollment, onSignedIn }: PasswordStepProps) {
  const [serverError, setServerError] = useState<string>()
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<SignInValues>({
    resolver: schemaResolver(signInSchema),
    defaultValues: { email: '', password: '' },
  })

  const onSubmit = handleSubmit(async ({ email, password }) => {
    setServerError(undefined)
    try {
      const result = await signIn(email, password)
      if (!result.success) return setServerError(result.error)
      if (result.mfaEnrollmentAvailable) return onMfaEnrollment()
      if (result.mfaRequired) return onMfaRequired()
      await onSignedIn()
    } catch (error) {
      setServerError(unexpectedError(error))
    }
  })

  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Welcome back">
        Sign in to hand off your to-dos and explore your benefits.
      </AuthHeader>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <TextInput
          label="Email address"
          type="email"
          required
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <div className="flex flex-col gap-2">
          <TextInput
            label="Password"
            type="password"
            required
            autoComplete="current-password"
            error={errors.password?.message}
            {...register('password')}
          />
          <Link to="/forgot-password" className="self-end text-sm">
            Forgot password?
          </Link>
        </div>
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={isSubmitting}>
          Sign in
        </Button>
      </form>
      <div className="flex flex-col gap-2 text-center">
        <Paragraph size="sm" tone="muted">
          New here? <Link to="/sign-up">Sign up</Link>
        </Paragraph>
        <Paragraph size="sm" tone="muted">
          Trouble signing in? <SupportLink />
        </Paragraph>
      </div>
    </div>
  )
}

function CodeStep({
  onVerified,
  onCancel,
}: {
  onVerified: () => Promise<void>
  onCancel: () => void
}) {
  const [leaving, setLeaving] = useState(false)
  const switchAccount = async () => {
    setLeaving(true)
    try {
      await signOut()
    } catch {
      // Local state is cleared either way.
    }
    setLeaving(false)
    onCancel()
  }
  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Check your phone">
        We sent a 6-digit verification code to the phone number on your account. Enter it below to
        finish signing in.
      </AuthHeader>
      <MfaCodeForm
        onVerified={onVerified}
        footer={
          <Button variant="tertiary" size="sm" onClick={switchAccount} loading={leaving}>
            Sign in with a different account
          </Button>
        }
      />
    </div>
  )
}
