import { useMemo, useState } from 'react'
import { type Path, useForm } from 'react-hook-form'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, FormError, Link, Paragraph, TextInput } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { type SignUpValues, signUpSchema } from '@/lib/formRules'
import { schemaResolver } from '@/lib/validation'
import { signUp } from '../api/auth'
import { AuthHeader } from '../components/AuthHeader'

export const TERMS_URL = 'https://www.example.com/terms'
export const PRIVACY_URL = 'https://www.example.com/privacy'

/** Server field names (sign-up payload, spec §3) → form fields. */
const SERVER_FIELDS: Record<string, Path<SignUpValues>> = {
  name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  password: 'password',
  company_slug: 'companyCode',
}

/** SignUp (spec §2, §4): under the company in the URL, or a company code the user types. */
export default function SignUp() {
  const { companySlug } = useParams()
  const [searchParams] = useSearchParams()
  const invite = searchParams.get('invite') ?? undefined
  const navigate = useNavigate()
  const needsCompanyCode = !companySlug
  const schema = useMemo(() => signUpSchema(needsCompanyCode), [needsCompanyCode])
  const [serverError, setServerError] = useState<string>()
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<SignUpValues>({
    resolver: schemaResolver(schema),
    defaultValues: { firstName: '', lastName: '', email: '', password: '', companyCode: '' },
  })

  const onSubmit = handleSubmit(async (values) => {
    setServerError(undefined)
    try {
      const result = await signUp({
        name: values.firstName,
        last_name: values.lastName,
        email: values.email,
        password: values.password,
        company_slug: companySlug ?? values.companyCode ?? '',
        invite,
      })
      if (!result.success) {
        let shownOnField = false
        for (const [key, messages] of Object.entries(result.errors ?? {})) {
          const field = SERVER_FIELDS[key]
          if (!field || !messages[0] || (field === 'companyCode' && !needsCompanyCode)) continue
          setError(field, { type: 'server', message: messages[0] })
          shownOnField = true
        }
        if (!shownOnField) setServerError(result.error)
        return
      }
      if (result.mfaEnrollmentAvailable) return navigate('/mfa-enrollment', { replace: true })
      if (result.mfaRequired) return navigate('/sign-in', { replace: true })
      navigate('/welcome/about-us', { replace: true })
    } catch (error) {
      setServerError(unexpectedError(error))
    }
  })

  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Create your account">
        Get a personal concierge for life’s to-dos, plus the benefits your employer offers.
      </AuthHeader>
      <form noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
        <div className="grid gap-5 sm:grid-cols-2">
          <TextInput
            label="First name"
            required
            autoComplete="given-name"
            error={errors.firstName?.message}
            {...register('firstName')}
          />
          <TextInput
            label="Last name"
            required
            autoComplete="family-name"
            error={errors.lastName?.message}
            {...register('lastName')}
          />
        </div>
        <TextInput
          label="Email address"
          type="email"
          required
          autoComplete="email"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextInput
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          description="At least 6 characters."
          error={errors.password?.message}
          {...register('password')}
        />
        {needsCompanyCode ? (
          <TextInput
            label="Company code"
            required
            autoComplete="off"
            autoCapitalize="none"
            description="You’ll find it in the invitation from your employer."
            error={errors.companyCode?.message}
            {...register('companyCode')}
          />
        ) : null}
        <Paragraph size="sm" tone="muted">
          By creating an account you agree to our <Link href={TERMS_URL}>Terms of Use</Link> and{' '}
          <Link href={PRIVACY_URL}>Privacy Policy</Link>.
        </Paragraph>
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={isSubmitting}>
          Create account
        </Button>
      </form>
      <Paragraph size="sm" tone="muted" className="text-center">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </Paragraph>
    </div>
  )
}
