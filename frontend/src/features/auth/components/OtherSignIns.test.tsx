import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { session } from '@/lib/session'
import { currentUserOk } from '@/test/handlers'
import { makeUser, renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import SignIn from '../routes/SignIn'

const ACME = {
  available: true,
  company_name: 'Acme Corp',
  company_slug: 'acme',
  start_url: '/api/v1/sso/acme/start',
}

function discoverAcme(seen: string[] = []) {
  return http.get(apiUrl('/api/v1/sso/discover'), ({ request }) => {
    const query = new URL(request.url).searchParams
    seen.push(query.toString())
    const acme = query.get('email')?.endsWith('@acme.test') || query.get('company') === 'acme'
    return HttpResponse.json(acme ? ACME : { available: false })
  })
}

function exchangeOk(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  return http.post(apiUrl('/api/v1/sso/exchange'), () =>
    HttpResponse.json(
      { success: true, expires_at: new Date(Date.now() + 3_600_000).toISOString(), ...body },
      { headers: { Authorization: 'Bearer sso-token', ...headers } },
    ),
  )
}

const CONTINUE = { name: "Continue with your company's sign-in" }

describe('OtherSignIns (company sign-in)', () => {
  it("issue 26 SSO: a typed email whose domain has company sign-in offers 'Continue with your company's sign-in'", async () => {
    const seen: string[] = []
    server.use(discoverAcme(seen))
    const { user } = renderWithProviders(<SignIn />, { route: '/sign-in' })
    await user.type(screen.getByLabelText('Email address'), 'nia@globex.test')
    await waitFor(() => expect(seen).toHaveLength(1))
    expect(screen.queryByRole('button', CONTINUE)).not.toBeInTheDocument()
    await user.clear(screen.getByLabelText('Email address'))
    await user.type(screen.getByLabelText('Email address'), 'nia@acme.test')
    expect(await screen.findByRole('button', CONTINUE)).toBeInTheDocument()
    expect(screen.getByText('Acme Corp signs you in with your work account.')).toBeInTheDocument()
    // Asked once typing paused, not for every keystroke of the domain.
    expect(seen.length).toBeLessThanOrEqual(3)
  })

  it('issue 26 SSO: a company slug in the address (?company=acme) offers it at once', async () => {
    server.use(discoverAcme())
    renderWithProviders(<SignIn />, { route: '/sign-in?company=acme' })
    expect(await screen.findByRole('button', CONTINUE)).toBeInTheDocument()
  })

  it('issue 26 SSO: the code the server sent back is exchanged once and the sign-in goes on to the Dashboard, like a password sign-in', async () => {
    const codes: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/sso/exchange'), async ({ request }) => {
        codes.push(await request.json())
        return HttpResponse.json(
          {
            success: true,
            expires_at: new Date(Date.now() + 3_600_000).toISOString(),
            mfa_required: false,
            mfa_requires_verification: false,
          },
          { headers: { Authorization: 'Bearer sso-token', 'mfa-token': 'idp-mfa' } },
        )
      }),
      currentUserOk(makeUser()),
    )
    const { router } = renderWithProviders(<SignIn />, {
      route: '/sign-in#sso=one-time',
      path: '/sign-in',
    })
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(codes).toEqual([{ code: 'one-time' }])
    expect(session.get().token).toBe('sso-token')
    expect(session.get().mfaToken).toBe('idp-mfa')
  })

  it("issue 26 SSO: without the provider's MFA the product's own code step follows", async () => {
    server.use(exchangeOk({ mfa_required: true, mfa_requires_verification: false }))
    server.use(
      http.get(apiUrl('/api/v1/mfa/methods'), () =>
        HttpResponse.json({ methods: ['sms'], phone_hint: '42' }),
      ),
    )
    const { router } = renderWithProviders(<SignIn />, {
      route: '/sign-in#sso=c',
      path: '/sign-in',
    })
    await waitFor(() => expect(session.get().mfaRequired).toBe(true))
    expect(router.state.location.pathname).toBe('/sign-in')
    expect(router.state.location.hash).toBe('')
  })

  it('issue 26 SSO: a refused company sign-in shows its reason in the error box', async () => {
    const message = 'Acme Corp has no account for nia@acme.test yet.'
    const { router } = renderWithProviders(<SignIn />, {
      route: `/sign-in#sso-error=${encodeURIComponent(message)}`,
      path: '/sign-in',
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(message)
    expect(router.state.location.hash).toBe('')
    expect(session.isAuthenticated()).toBe(false)
  })

  it('issue 26 SSO: an expired code says so', async () => {
    server.use(
      http.post(apiUrl('/api/v1/sso/exchange'), () =>
        HttpResponse.json({ success: false, error: 'This sign-in has expired.' }, { status: 400 }),
      ),
    )
    renderWithProviders(<SignIn />, { route: '/sign-in#sso=old', path: '/sign-in' })
    expect(await screen.findByRole('alert')).toHaveTextContent('This sign-in has expired.')
  })
})
