import { useMemo, useState } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, FormError, Link, Paragraph, TextInput } from '@/design-system'
import { config } from '@/lib/config'
import { unexpectedError } from '@/lib/errors'
import { useLegalLinks } from '@/lib/site'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type SignUpValues, signUpSchema } from '../accountRules'
import { signUp } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'

/** Server field names (sign-up payload, spec §3) → form fields. */
const SERVER_FIELDS: Record<string, keyof SignUpValues> = {
  name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  password: 'password',
}

/**
 * SignUp (spec §2, §4): under the company in the URL. Without one, the page explains that an
 * account starts from the employer's sign-up link: the product is offered through employers, and
 * the link (which may carry an invite) is how a visitor reaches their company.
 */
export default function SignUp() {
  const { companySlug } = useParams()
  return companySlug ? <SignUpForm companySlug={companySlug} /> : <SignUpNeedsCompanyLink />
}

function SignUpNeedsCompanyLink() {
  return (
    <div className="flex flex-col gap-8">
      <AuthHeader title="Sign up with your company’s link">
        {config.productName} is offered by employers to their employees, so each company has its own
        sign-up link.
      </AuthHeader>
      <div className="flex flex-col gap-4">
        <Paragraph>
          Look for it in the invitation from your employer or on your benefits page, or ask your HR
          team for it. It opens this page with your company’s name already in place.
        </Paragraph>
        <Paragraph size="sm" tone="muted">
          Can’t find it?{' '}
          <Link href={`mailto:${config.supportEmail}`}>
            Contact support at {config.supportEmail}
          </Link>
        </Paragraph>
      </div>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Sign in to an existing account
      </Button>
    </div>
  )
}

/** Legal links from the server's TERMS_URL and PRIVACY_URL. */
export function LegalConsent() {
  const links = useLegalLinks()
  return (
    <Paragraph size="sm" tone="muted">
      By creating an account you agree to our{' '}
      {links ? <Link href={links.terms_url}>Terms of Use</Link> : 'Terms of Use'} and{' '}
      {links ? <Link href={links.privacy_url}>Privacy Policy</Link> : 'Privacy Policy'}.
    </Paragraph>
  )
}

function SignUpForm({ companySlug }: { companySlug: string }) {
  const [searchParams] = useSearchParams()
  const invite = searchParams.get('invite') ?? undefined
  const navigate = useNavigate()
  const schema = useMemo(() => signUpSchema(), [])
  const [serverError, setServerError] = useState<string>()
  const { field, errors, setError, submitting, onSubmit } = useSchemaForm(
    schema,
    async (values) => {
      setServerError(undefined)
      try {
        const result = await signUp({
          name: values.firstName,
          last_name: values.lastName,
          email: values.email,
          password: values.password,
          company_slug: companySlug,
          invite,
        })
        if (!result.success) {
          let shownOnField = false
          for (const [key, messages] of Object.entries(result.errors ?? {})) {
            const name = SERVER_FIELDS[key]
            if (!name || !messages[0]) continue
            setError(name, messages[0])
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
    },
  )

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
            error={errors.firstName}
            {...field('firstName')}
          />
          <TextInput
            label="Last name"
            required
            autoComplete="family-name"
            error={errors.lastName}
            {...field('lastName')}
          />
        </div>
        <TextInput
          label="Email address"
          type="email"
          required
          autoComplete="email"
          error={errors.email}
          {...field('email')}
        />
        <TextInput
          label="Password"
          type="password"
          required
          autoComplete="new-password"
          description="At least 6 characters."
          error={errors.password}
          {...field('password')}
        />
        <LegalConsent />
        <FormError message={serverError} />
        <Button type="submit" fullWidth loading={submitting}>
          Create account
        </Button>
      </form>
      <Paragraph size="sm" tone="muted" className="text-center">
        Already have an account? <Link to="/sign-in">Sign in</Link>
      </Paragraph>
    </div>
  )
}
