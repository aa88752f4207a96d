import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { SsoSettings } from './SsoSettings'

const EMPTY = {
  configured: false,
  kind: null,
  enabled: true,
  oidc_issuer: '',
  oidc_client_id: '',
  oidc_client_secret_set: false,
  oidc_redirect_uri: 'https://app.example.com/api/v1/sso/oidc/callback',
  saml_metadata_xml: '',
  saml_metadata_url: '',
  saml_sp_entity_id: 'https://app.example.com/api/v1/sso/acme/saml/metadata',
  saml_sp_metadata_url: 'https://app.example.com/api/v1/sso/acme/saml/metadata',
  saml_acs_url: 'https://app.example.com/api/v1/sso/acme/saml/acs',
  email_attribute: 'email',
  first_name_attribute: 'given_name',
  last_name_attribute: 'family_name',
  employee_id_attribute: '',
  create_accounts: false,
  sso_required: false,
  break_glass_email: '',
}

function settingsHandlers(saved: unknown[], current = EMPTY) {
  return [
    http.get(apiUrl('/api/v1/company/:id/sso'), () => HttpResponse.json(current)),
    http.put(apiUrl('/api/v1/company/:id/sso'), async ({ request }) => {
      const body = (await request.json()) as Record<string, unknown>
      saved.push(body)
      return HttpResponse.json({
        ...current,
        ...body,
        configured: true,
        oidc_client_secret_set: true,
      })
    }),
  ]
}

describe('SsoSettings', () => {
  it('issue 26 SSO: the company admin sets up OIDC: the redirect URI to register, the secret sent once, the switches', async () => {
    const saved: Record<string, unknown>[] = []
    server.use(...settingsHandlers(saved))
    const { user } = renderWithProviders(<SsoSettings companyId={7} />)
    expect(await screen.findByText(EMPTY.oidc_redirect_uri)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Save company sign-in' }))
    expect(await screen.findByText("Please enter the issuer's address.")).toBeInTheDocument()
    expect(screen.getByLabelText(/^Issuer/)).toHaveFocus()
    await user.type(screen.getByLabelText(/^Issuer/), 'https://idp.example.com')
    await user.type(screen.getByLabelText(/^Client id/), 'concierge')
    await user.type(screen.getByLabelText(/^Client secret/), 's3cret')
    await user.click(screen.getByLabelText('Create accounts at first sign-in'))
    await user.click(screen.getByLabelText('SSO required'))
    await user.type(screen.getByLabelText(/^Break-glass account/), 'it@acme.test')
    await user.click(screen.getByRole('button', { name: 'Save company sign-in' }))
    await waitFor(() => expect(saved).toHaveLength(1))
    expect(saved[0]).toMatchObject({
      kind: 'oidc',
      oidc_issuer: 'https://idp.example.com',
      oidc_client_id: 'concierge',
      oidc_client_secret: 's3cret',
      create_accounts: true,
      sso_required: true,
      enabled: true,
      break_glass_email: 'it@acme.test',
    })
    expect(await screen.findByText('Company sign-in saved')).toBeInTheDocument()
  })

  it('issue 26 SSO: SAML shows our SP metadata address and ACS to register', async () => {
    server.use(...settingsHandlers([]))
    const { user } = renderWithProviders(<SsoSettings companyId={7} />)
    await user.click(await screen.findByLabelText('SAML 2.0'))
    expect(screen.getByText(EMPTY.saml_sp_metadata_url)).toBeInTheDocument()
    expect(screen.getByText(EMPTY.saml_acs_url)).toBeInTheDocument()
    expect(screen.getByLabelText(/^Identity provider metadata XML/)).toBeInTheDocument()
  })

  it("issue 26 SSO: the test sign-in's result shows when the provider sends the admin back", async () => {
    server.use(
      ...settingsHandlers([], { ...EMPTY, configured: true, kind: 'oidc' } as never),
      http.post(apiUrl('/api/v1/sso/exchange'), () =>
        HttpResponse.json({
          success: true,
          mfa_required: false,
          mfa_requires_verification: false,
          test_result: {
            email: 'nia@acme.test',
            first_name: 'Nia',
            last_name: 'Okafor',
            employee_id: 'E-1',
            mfa_done: true,
          },
        }),
      ),
    )
    const { router } = renderWithProviders(<SsoSettings companyId={7} />, {
      route: '/company/members#sso-test=abc',
      path: '/company/members',
    })
    const status = await screen.findByRole('status')
    expect(status).toHaveTextContent('The test sign-in worked')
    expect(status).toHaveTextContent('nia@acme.test')
    expect(status).toHaveTextContent('Done at the provider')
    await waitFor(() => expect(status).toHaveFocus())
    expect(router.state.location.hash).toBe('')
  })

  it('issue 26 SSO: a failed test sign-in says why', async () => {
    server.use(...settingsHandlers([]))
    renderWithProviders(<SsoSettings companyId={7} />, {
      route: `/company/members#sso-test-error=${encodeURIComponent('Wrong audience.')}`,
      path: '/company/members',
    })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'The test sign-in failed. Wrong audience.',
    )
  })

  it('offers Retry when the settings failed to load', async () => {
    let calls = 0
    server.use(
      http.get(apiUrl('/api/v1/company/:id/sso'), () => {
        calls += 1
        return calls === 1 ? HttpResponse.error() : HttpResponse.json(EMPTY)
      }),
    )
    const { user } = renderWithProviders(<SsoSettings companyId={7} />)
    await user.click(await screen.findByRole('button', { name: 'Retry' }))
    expect(await screen.findByText(EMPTY.oidc_redirect_uri)).toBeInTheDocument()
  })
})
