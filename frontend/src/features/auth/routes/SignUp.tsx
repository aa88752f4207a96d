import { useQuery } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, FormError, Link, Paragraph, Spinner, TextInput } from '@/design-system'
import { config } from '@/lib/config'
import { unexpectedError } from '@/lib/errors'
import { useLegalLinks } from '@/lib/site'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type SignUpValues, signUpSchema } from '../accountRules'
import { ACCOUNT_MESSAGES, type SignUpCompany, signUp, signUpCompany } from '../api/account'
import { AuthHeader } from '../components/AuthHeader'
import { focusOnMount } from '../components/focusOnMount'
import { MailSentIcon, StatusIcon } from '../components/StatusIcon'
import { SupportLink } from '../components/SupportLink'

/** Server field names (sign-up payload, spec §3) → form fields. */
const SERVER_FIELDS: Record<string, keyof SignUpValues> = {
  name: 'firstName',
  last_name: 'lastName',
  email: 'email',
  password: 'password',
}

/**
 * SignUp (spec §2, §4): under the company in the URL, named with its logo as the page opens; a
 * link naming no company says so at once. Without one, the page explains that an account starts
 * from the employer's sign-up link: the product is offered through employers, and the link
 * (which may carry an invite) is how a visitor reaches their company.
 */
export default function SignUp() {
  const { companySlug } = useParams()
  return companySlug ? <SignUpUnder companySlug={companySlug} /> : <SignUpNeedsCompanyLink />
}

function SignUpUnder({ companySlug }: { companySlug: string }) {
  const company = useQuery({
    queryKey: ['sign-up-company', companySlug],
    queryFn: () => signUpCompany(companySlug),
    retry: false,
    staleTime: Number.POSITIVE_INFINITY,
  })
  const [checkEmail, setCheckEmail] = useState<string>()
  if (checkEmail) return <CheckYourEmail email={checkEmail} />
  if (company.isPending) return <Spinner label="Loading" className="self-center" />
  if (company.data === null) return <UnknownCompany />
  // Without an answer (no connection, too many attempts) the form shows unnamed: its submit says.
  return (
    <SignUpForm companySlug={companySlug} company={company.data} onCheckEmail={setCheckEmail} />
  )
}

function UnknownCompany() {
  return (
    <div className="flex flex-col gap-6">
      <StatusIcon ok={false} />
      <AuthHeader title="This sign-up link doesn’t work">
        {ACCOUNT_MESSAGES.unknownCompany}
      </AuthHeader>
      <Paragraph size="sm" tone="muted">
        Still stuck? <SupportLink>Contact support</SupportLink> and we’ll help you.
      </Paragraph>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Sign in to an existing account
      </Button>
    </div>
  )
}

/**
 * After a sign-up that confirms its email first, and after one with an email that already has
 * an account (whose owner was emailed instead): the same page, so neither tells the other apart.
 */
function CheckYourEmail({ email }: { email: string }) {
  return (
    <div
      ref={focusOnMount}
      tabIndex={-1}
      className="flex flex-col gap-6 outline-none"
      role="status"
    >
      <MailSentIcon />
      <AuthHeader title="Check your email">
        We’ve sent an email to <strong className="font-semibold break-all text-ink">{email}</strong>
        . Open the link in it to continue, then sign in.
      </AuthHeader>
      <Paragraph size="sm" tone="muted">
        Can’t find it? Look in your spam folder, or <SupportLink>contact support</SupportLink>.
      </Paragraph>
      <Button to="/sign-in" variant="secondary" fullWidth>
        Return to sign in
      </Button>
    </div>
  )
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

/** The company the page is for: its logo when it has one, and 'Join {name}'. */
function SignUpTitle({ company }: { company?: SignUpCompany }) {
  const intro =
    'Get a personal concierge for life’s to-dos, plus the benefits your employer offers.'
  if (!company) return <AuthHeader title="Create your account">{intro}</AuthHeader>
  return (
    <div className="flex flex-col gap-5">
      {company.logo_url ? (
        <img src={company.logo_url} alt="" className="h-10 max-w-48 self-start object-contain" />
      ) : null}
      <AuthHeader title={`Join ${company.name}`}>Create your account. {intro}</AuthHeader>
    </div>
  )
}

/** The server's messages that belong to a form field, each field's first. */
function fieldMessages(errors: Record<string, string[]> = {}) {
  return Object.entries(errors).flatMap(([key, [message]]) => {
    const name = SERVER_FIELDS[key]
    return name && message ? [[name, message] as const] : []
  })
}

function SignUpForm({
  companySlug,
  company,
  onCheckEmail,
}: {
  companySlug: string
  company?: SignUpCompany
  onCheckEmail: (email: string) => void
}) {
  const [searchParams] = useSearchParams()
  const invite = searchParams.get('invite') ?? undefined
  const navigate = useNavigate()
  const schema = useMemo(() => signUpSchema(), [])
  const [serverError, setServerError] = useState<string>()
  const { field, errors, showServerErrors, submitting, onSubmit } = useSchemaForm(
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
          const onFields = fieldMessages(result.errors)
          if (onFields.length === 0) return setServerError(result.error)
          showServerErrors(onFields)
          return
        }
        if (result.checkEmail) return onCheckEmail(result.checkEmail)
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
      <SignUpTitle company={company} />
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
