import { lazy, Suspense, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, FormError, Link, Paragraph, Spinner, TextInput } from '@/design-system'
import { resolvePostLoginPath, signOut } from '@/lib/currentUser'
import { unexpectedError } from '@/lib/errors'
import { type SignInValues, signInSchema } from '@/lib/formRules'
import { useSession } from '@/lib/session'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type AccountResult, signIn } from '../api/auth'
import { AuthHeader } from '../components/AuthHeader'
import { SupportLink } from '../components/SupportLink'

// The MFA step loads only when a sign-in needs it, and the other ways in (a passkey, the
// company's sign-in) after the first paint: the sign-in page's first load stays small.
const MfaStep = lazy(() => import('../components/MfaStep'))
const OtherSignIns = lazy(() => import('../components/OtherSignIns'))

/** SignIn (spec §2, §4): email and password, then the code form when MFA is required. */
export default function SignIn() {
  const navigate = useNavigate()
  const { mfaRequired } = useSession()
  const [codeStep, setCodeStep] = useState(false)
  // The return target, else the user's home (the concierge desk for a concierge).
  const goOn = async () => {
    const path = await resolvePostLoginPath()
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

  // Password, passkey and company sign-in end the same way.
  const onResult = async (result: AccountResult) => {
    if (result.mfaEnrollmentAvailable) return onMfaEnrollment()
    if (result.mfaRequired) return onMfaRequired()
    await onSignedIn()
  }

  const { field, watch, errors, submitting, onSubmit } = useSchemaForm<SignInValues>(
    signInSchema,
    async ({ email, password }) => {
      setServerError(undefined)
      try {
        const result = await signIn(email, password)
        if (!result.success) return setServerError(result.error)
        await onResult(result)
      } catch (error) {
        setServerError(unexpectedError(error))
      }
    },
  )

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
          error={errors.email}
          {...field('email')}
        />
        <div className="flex flex-col gap-2">
          <TextInput
            label="Password"
            type="password"
            required
            autoComplete="current-password"
            error={errors.password}
            {...field('password')}
          />
          <Link to="/forgot-password" className="self-end text-sm">
            Forgot password?
          </Link>
        </div>
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={submitting}>
          Sign in
        </Button>
      </form>
      <Suspense>
        <OtherSignIns email={watch().email ?? ''} onResult={onResult} onError={setServerError} />
      </Suspense>
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
    <Suspense fallback={<Spinner label="Loading" className="self-center" />}>
      <MfaStep
        onVerified={onVerified}
        footer={
          <Button variant="tertiary" size="sm" onClick={switchAccount} loading={leaving}>
            Sign in with a different account
          </Button>
        }
      />
    </Suspense>
  )
}
