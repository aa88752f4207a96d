import { Building2, KeyRound } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Button, Paragraph, Spinner } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import type { AccountResult } from '../api/auth'
import {
  type CompanySignIn,
  companySignInReturn,
  discoverCompanySignIn,
  finishCompanySignIn,
} from '../api/sso'

export interface OtherSignInsProps {
  /** The email typed so far: its domain may name a company with its own sign-in. */
  email: string
  onResult: (result: AccountResult) => Promise<void> | void
  onError: (message: string | undefined) => void
}

const DOMAIN = /@([a-z0-9-]+(\.[a-z0-9-]+)+)$/i

/**
 * The sign-in page's other ways in, loaded after its first paint: a passkey, and "Continue
 * with your company's sign-in" once the email's domain (or `?company=<slug>`) names a company
 * with SSO. It also finishes a company sign-in the server sent back here (`#sso=<code>`).
 */
export default function OtherSignIns({ email, onResult, onError }: OtherSignInsProps) {
  const passkeys = typeof window.PublicKeyCredential === 'function'
  const [passkeyBusy, setPasskeyBusy] = useState(false)
  const onPasskey = async () => {
    onError(undefined)
    setPasskeyBusy(true)
    try {
      const { signInWithPasskey } = await import('../api/factors')
      const result = await signInWithPasskey()
      if (!result.success) return onError(result.error)
      await onResult({ success: true })
    } catch (error) {
      onError(unexpectedError(error))
    } finally {
      setPasskeyBusy(false)
    }
  }

  const finishing = useCompanySignInReturn(onResult, onError)
  const company = useCompanySignIn(email)
  const [leaving, setLeaving] = useState(false)

  if (finishing) {
    return <Spinner label="Finishing your company's sign-in" className="self-center" />
  }
  if (!company && !passkeys) return null
  // Beside the company's button the passkey's label takes the same size, on a phone too.
  const narrow = company ? '@max-[23rem]:px-4 @max-[23rem]:text-sm' : undefined
  return (
    <div className="@container flex flex-col gap-8">
      {company ? (
        <div className="flex flex-col gap-2">
          {/* The label takes one line down to a phone's width (smaller type below the width
              it needs at full size); narrower still, its two lines are balanced. */}
          <Button
            variant="secondary"
            fullWidth
            className={`text-balance ${narrow}`}
            icon={<Building2 />}
            loading={leaving}
            onClick={() => {
              setLeaving(true)
              window.location.assign(company.startUrl)
            }}
          >
            Continue with your company's sign-in
          </Button>
          <Paragraph size="sm" tone="muted" className="text-center">
            {company.companyName} signs you in with your work account.
          </Paragraph>
        </div>
      ) : null}
      {passkeys ? (
        <Button
          variant="secondary"
          fullWidth
          className={narrow}
          icon={<KeyRound />}
          loading={passkeyBusy}
          onClick={onPasskey}
        >
          Continue with a passkey
        </Button>
      ) : null}
    </div>
  )
}

/** The company sign-in for the typed email's domain, else for `?company=` in the address. */
function useCompanySignIn(email: string): CompanySignIn | null {
  const domain = DOMAIN.exec(email.trim())?.[1]?.toLowerCase()
  const slug = new URLSearchParams(useLocation().search).get('company') ?? undefined
  const known = useRef(new Map<string, CompanySignIn | null>())
  const [found, setFound] = useState<CompanySignIn | null>(null)
  useEffect(() => {
    const key = domain ? `@${domain}` : slug ? `#${slug}` : ''
    if (!key) return setFound(null)
    if (known.current.has(key)) return setFound(known.current.get(key) ?? null)
    let current = true
    // Asked once typing pauses, so each keystroke of the domain is not a request.
    const timer = window.setTimeout(async () => {
      const query = domain
        ? { email: `a@${domain}`, ...(slug && { company: slug }) }
        : { company: slug }
      const answer = await discoverCompanySignIn(query).catch(() => null)
      known.current.set(key, answer)
      if (current) setFound(answer)
    }, 300)
    return () => {
      current = false
      window.clearTimeout(timer)
    }
  }, [domain, slug])
  return found
}

/** Exchanges the code of a company sign-in that came back to this page (once). */
function useCompanySignInReturn(
  onResult: OtherSignInsProps['onResult'],
  onError: OtherSignInsProps['onError'],
): boolean {
  const location = useLocation()
  const navigate = useNavigate()
  const [returned] = useState(() => companySignInReturn(location.hash))
  const [finishing, setFinishing] = useState(Boolean(returned?.code))
  const started = useRef(false)
  useEffect(() => {
    if (!returned || started.current) return
    started.current = true
    // The code works once: it leaves the address at once (and the history).
    void navigate(location.pathname + location.search, { replace: true })
    if (returned.error) return onError(returned.error)
    finishCompanySignIn(returned.code ?? '')
      .then(async (result) => {
        if (!result.success) return onError(result.error)
        await onResult(result)
      })
      .catch((error: unknown) => onError(unexpectedError(error)))
      .finally(() => setFinishing(false))
  }, [returned, onResult, onError, navigate, location])
  return finishing
}
