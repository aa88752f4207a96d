import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { FlaskConical, Save } from 'lucide-react'
import { type ReactNode, useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import {
  Button,
  CheckboxField,
  FormError,
  Paragraph,
  RetryAlert,
  Skeleton,
  TextInput,
  useToast,
} from '@/design-system'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { type FieldMessages, schema } from '@/lib/validation'
import {
  fetchSsoSettings,
  finishSsoTest,
  SsoApiError,
  type SsoSettingsData,
  type SsoTestResult,
  saveSsoSettings,
  ssoSettingsQueryKey,
  startSsoTest,
} from '../ssoApi'

type Values = {
  kind: string
  oidc_issuer: string
  oidc_client_id: string
  oidc_client_secret: string
  saml_metadata_url: string
  saml_metadata_xml: string
  email_attribute: string
  first_name_attribute: string
  last_name_attribute: string
  employee_id_attribute: string
  enabled: string
  create_accounts: string
  sso_required: string
  break_glass_email: string
}

const ON = 'on'
const URL_RULE = /^https?:\/\/\S+$/

function needed(values: Values, secretSet: boolean): FieldMessages<Values> {
  const errors: FieldMessages<Values> = {}
  if (values.kind === 'oidc') {
    if (!URL_RULE.test(values.oidc_issuer))
      errors.oidc_issuer = "Please enter the issuer's address."
    if (!values.oidc_client_id) errors.oidc_client_id = 'Please enter the client id.'
    if (!values.oidc_client_secret && !secretSet)
      errors.oidc_client_secret = 'Please enter the client secret.'
  } else if (!values.saml_metadata_url && !values.saml_metadata_xml) {
    errors.saml_metadata_url = "Please give the provider's metadata address or paste its XML."
  } else if (values.saml_metadata_url && !URL_RULE.test(values.saml_metadata_url)) {
    errors.saml_metadata_url = 'Please enter a full web address.'
  }
  if (!values.email_attribute) errors.email_attribute = 'Please name the email attribute.'
  if (values.sso_required === ON && !values.break_glass_email)
    errors.break_glass_email = 'Name the account that may still use its password.'
  return errors
}

function defaults(data: SsoSettingsData): Partial<Values> {
  return {
    kind: data.kind ?? 'oidc',
    oidc_issuer: data.oidc_issuer,
    oidc_client_id: data.oidc_client_id,
    saml_metadata_url: data.saml_metadata_url,
    saml_metadata_xml: data.saml_metadata_xml,
    email_attribute: data.email_attribute,
    first_name_attribute: data.first_name_attribute,
    last_name_attribute: data.last_name_attribute,
    employee_id_attribute: data.employee_id_attribute,
    enabled: data.enabled ? ON : '',
    create_accounts: data.create_accounts ? ON : '',
    sso_required: data.sso_required ? ON : '',
    break_glass_email: data.break_glass_email,
  }
}

/**
 * The company admin's company sign-in (SSO) settings on the members page: the identity
 * provider (OpenID Connect or SAML 2.0), what to register there, the attribute mapping, the
 * switches, and a test sign-in whose result shows here when the provider sends the admin back.
 */
export function SsoSettings({ companyId }: { companyId: number }) {
  const settings = useQuery({
    queryKey: ssoSettingsQueryKey(companyId),
    queryFn: () => fetchSsoSettings(companyId),
  })
  return (
    <section aria-labelledby="sso-settings" className="flex flex-col gap-4">
      <div className="flex flex-col gap-1">
        <h2 id="sso-settings" className="text-lg font-semibold text-ink">
          Company sign-in (SSO)
        </h2>
        <Paragraph size="sm" tone="muted">
          Let your people sign in with their work account through your identity provider (Okta,
          Microsoft Entra ID, Google Workspace and others), with OpenID Connect or SAML 2.0.
        </Paragraph>
      </div>
      <TestResult />
      {settings.isPending ? (
        <Skeleton height="16rem" className="rounded-2xl" />
      ) : settings.isError ? (
        <RetryAlert message={settings.error.message} onRetry={() => void settings.refetch()} />
      ) : (
        <SsoForm companyId={companyId} data={settings.data} />
      )}
    </section>
  )
}

function SsoForm({ companyId, data }: { companyId: number; data: SsoSettingsData }) {
  const queryClient = useQueryClient()
  const { toast } = useToast()
  const [serverError, setServerError] = useState<string>()
  const validate = schema<Values>(
    {},
    {
      trim: ['oidc_issuer', 'oidc_client_id', 'saml_metadata_url', 'break_glass_email'],
      refine: (values) => needed(values, data.oidc_client_secret_set),
    },
  )
  const save = useMutation({
    mutationFn: (values: Values) =>
      saveSsoSettings(companyId, {
        ...values,
        kind: values.kind === 'saml' ? 'saml' : 'oidc',
        oidc_client_secret: values.oidc_client_secret || null,
        enabled: values.enabled === ON,
        create_accounts: values.create_accounts === ON,
        sso_required: values.sso_required === ON,
      }),
    onSuccess: (saved) => {
      queryClient.setQueryData(ssoSettingsQueryKey(companyId), saved)
      toast({ message: 'Company sign-in saved', severity: 'success', autoDismiss: true })
    },
  })
  const form = useSchemaForm<Values>(
    validate,
    async (values) => {
      setServerError(undefined)
      try {
        await save.mutateAsync(values)
      } catch (error) {
        const fields = error instanceof SsoApiError ? error.errors : {}
        for (const [name, messages] of Object.entries(fields)) {
          form.setError(name as keyof Values, messages[0])
        }
        setServerError(error instanceof Error ? error.message : String(error))
      }
    },
    defaults(data),
  )
  const { field, controlledField, errors, submitting, onSubmit } = form
  const kind = controlledField('kind')
  const [testing, setTesting] = useState(false)
  const [testError, setTestError] = useState<string>()
  const onTest = async () => {
    setTestError(undefined)
    setTesting(true)
    try {
      window.location.assign(await startSsoTest(companyId))
    } catch (error) {
      setTestError(error instanceof Error ? error.message : String(error))
      setTesting(false)
    }
  }

  return (
    <form
      noValidate
      onSubmit={onSubmit}
      aria-labelledby="sso-settings"
      className="flex flex-col gap-5 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
    >
      <fieldset className="flex flex-col gap-2">
        <legend className="mb-2 text-sm font-semibold text-ink">Kind of sign-in</legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          <Choice name="kind" value="oidc" field={kind}>
            OpenID Connect
          </Choice>
          <Choice name="kind" value="saml" field={kind}>
            SAML 2.0
          </Choice>
        </div>
      </fieldset>

      {kind.value === 'saml' ? (
        <>
          <Registered
            items={[
              ['Entity id and metadata address', data.saml_sp_metadata_url],
              ['Assertion consumer service (HTTP-POST)', data.saml_acs_url],
            ]}
          >
            In your identity provider, add an app from our metadata address (or enter these values),
            sign assertions, and send the work email.
          </Registered>
          <TextInput
            label="Identity provider metadata address"
            type="url"
            description="Or paste the metadata XML below."
            error={errors.saml_metadata_url}
            {...field('saml_metadata_url')}
          />
          <TextInput
            label="Identity provider metadata XML"
            type="textarea"
            rows={4}
            error={errors.saml_metadata_xml}
            {...field('saml_metadata_xml')}
          />
        </>
      ) : (
        <>
          <Registered items={[['Redirect URI', data.oidc_redirect_uri]]}>
            In your identity provider, add a web app with this redirect URI and the scopes openid,
            email and profile.
          </Registered>
          <TextInput
            label="Issuer"
            type="url"
            required
            description="We read the rest from <issuer>/.well-known/openid-configuration."
            error={errors.oidc_issuer}
            {...field('oidc_issuer')}
          />
          <TextInput
            label="Client id"
            required
            error={errors.oidc_client_id}
            {...field('oidc_client_id')}
          />
          <TextInput
            label="Client secret"
            type="password"
            required={!data.oidc_client_secret_set}
            autoComplete="off"
            description={
              data.oidc_client_secret_set
                ? 'A secret is stored (encrypted). Leave empty to keep it.'
                : 'Stored encrypted, never shown again.'
            }
            error={errors.oidc_client_secret}
            {...field('oidc_client_secret')}
          />
        </>
      )}

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-ink">Attribute mapping</legend>
        <div className="grid gap-3 sm:grid-cols-2">
          <TextInput
            label="Email attribute"
            required
            error={errors.email_attribute}
            {...field('email_attribute')}
          />
          <TextInput label="First name attribute" {...field('first_name_attribute')} />
          <TextInput label="Last name attribute" {...field('last_name_attribute')} />
          <TextInput label="Employee id attribute" {...field('employee_id_attribute')} />
        </div>
      </fieldset>

      <fieldset className="flex flex-col gap-3">
        <legend className="mb-2 text-sm font-semibold text-ink">Switches</legend>
        <Toggle field={controlledField('enabled')} hint="Shown on the sign-in page.">
          Offer company sign-in
        </Toggle>
        <Toggle
          field={controlledField('create_accounts')}
          hint="Someone your provider signs in who has no account yet gets one."
        >
          Create accounts at first sign-in
        </Toggle>
        <Toggle
          field={controlledField('sso_required')}
          hint="Members may not sign in with a password, except the break-glass account."
        >
          SSO required
        </Toggle>
        <TextInput
          label="Break-glass account (email)"
          type="email"
          description="A member who may still sign in with a password, for when the provider is down."
          error={errors.break_glass_email}
          {...field('break_glass_email')}
        />
      </fieldset>

      <FormError message={serverError ?? testError} />
      <div className="flex flex-col gap-2 sm:flex-row">
        <Button type="submit" icon={<Save />} loading={submitting}>
          Save company sign-in
        </Button>
        <Button
          variant="secondary"
          icon={<FlaskConical />}
          loading={testing}
          disabled={!data.configured}
          onClick={onTest}
        >
          Test sign-in
        </Button>
      </div>
    </form>
  )
}

function Choice({
  name,
  value,
  field,
  children,
}: {
  name: string
  value: string
  field: { value: string; onChange: (value: string) => void }
  children: ReactNode
}) {
  return (
    <label className="flex items-center gap-2 text-sm text-ink">
      <input
        type="radio"
        name={name}
        value={value}
        checked={field.value === value}
        onChange={() => field.onChange(value)}
        className="size-4 accent-primary-600 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
      />
      {children}
    </label>
  )
}

function Toggle({
  field,
  hint,
  children,
}: {
  field: { name: string; value: string; onChange: (value: string) => void }
  hint: string
  children: ReactNode
}) {
  return (
    <CheckboxField
      name={field.name}
      label={children}
      hint={hint}
      checked={field.value === ON}
      onChange={(checked) => field.onChange(checked ? ON : '')}
    />
  )
}

/** The addresses to register at the identity provider, each copyable as text. */
function Registered({ items, children }: { items: [string, string][]; children: ReactNode }) {
  return (
    <div className="flex flex-col gap-2 rounded-xl bg-surface-muted p-3 text-sm">
      <p className="text-ink">{children}</p>
      <dl className="flex flex-col gap-1">
        {items.map(([label, value]) => (
          <div key={label} className="flex flex-col">
            <dt className="text-ink-muted">{label}</dt>
            <dd className="break-all font-mono text-ink">{value}</dd>
          </div>
        ))}
      </dl>
    </div>
  )
}

/** The test sign-in's result, when the provider sent the admin back here (`#sso-test=`). */
function TestResult() {
  const location = useLocation()
  const navigate = useNavigate()
  const [returned] = useState(() => new URLSearchParams(location.hash.replace(/^#/, '')))
  const [result, setResult] = useState<SsoTestResult>()
  const [error, setError] = useState<string | undefined>(
    returned.get('sso-test-error') ?? undefined,
  )
  const box = useRef<HTMLDivElement>(null)
  const started = useRef(false)
  useEffect(() => {
    const code = returned.get('sso-test')
    if (started.current || (!code && !error)) return
    started.current = true
    // The code works once: it leaves the address at once.
    void navigate(location.pathname + location.search, { replace: true })
    if (code) {
      finishSsoTest(code)
        .then(setResult)
        .catch((cause: unknown) => setError(cause instanceof Error ? cause.message : String(cause)))
    }
  }, [returned, error, navigate, location])
  useEffect(() => {
    if (result || error) box.current?.focus()
  }, [result, error])
  if (!result && !error) return null
  return (
    <div
      ref={box}
      tabIndex={-1}
      role={error ? 'alert' : 'status'}
      className={
        error
          ? 'rounded-2xl border border-danger-200 bg-danger-50 p-4 text-sm text-danger-800 outline-none focus-visible:outline-2 focus-visible:outline-focus'
          : 'rounded-2xl border border-primary-200 bg-primary-50 p-4 text-sm text-ink outline-none focus-visible:outline-2 focus-visible:outline-focus'
      }
    >
      {error ? (
        <p>
          <span className="font-semibold">The test sign-in failed.</span> {error}
        </p>
      ) : result ? (
        <>
          <p className="font-semibold">The test sign-in worked. Your provider said:</p>
          <dl className="mt-2 grid grid-cols-[auto_1fr] gap-x-4 gap-y-1">
            <dt className="text-ink-muted">Email</dt>
            <dd className="break-all">{result.email}</dd>
            <dt className="text-ink-muted">Name</dt>
            <dd>{[result.first_name, result.last_name].filter(Boolean).join(' ') || '—'}</dd>
            <dt className="text-ink-muted">Employee id</dt>
            <dd>{result.employee_id || '—'}</dd>
            <dt className="text-ink-muted">Second factor</dt>
            <dd>{result.mfa_done ? 'Done at the provider' : 'Not reported: ours applies'}</dd>
          </dl>
        </>
      ) : null}
    </div>
  )
}
