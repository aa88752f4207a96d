import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { ScimSettings } from './ScimSettings'

beforeEach(() => signInSession())

const BASE_URL = 'https://concierge.example.com/scim/v2'

/** The server's SCIM token state for company 7, changed by create and revoke. */
function serveScim(initial: { has_token: boolean }) {
  let state = {
    has_token: initial.has_token,
    created_at: initial.has_token ? '2026-11-20T10:00:00Z' : null,
    last_used_at: null as string | null,
    base_url: BASE_URL,
  }
  let tokens = 0
  server.use(
    http.get(apiUrl('/api/v1/company/7/scim'), () => HttpResponse.json(state)),
    http.post(apiUrl('/api/v1/company/7/scim'), () => {
      tokens += 1
      state = { ...state, has_token: true, created_at: '2026-11-27T10:00:00Z' }
      return HttpResponse.json({
        token: `scim_secret_${tokens}`,
        created_at: `2026-11-27T10:00:0${tokens}Z`,
        base_url: BASE_URL,
      })
    }),
    http.delete(apiUrl('/api/v1/company/7/scim'), () => {
      state = { ...state, has_token: false, created_at: null }
      return new HttpResponse(null, { status: 204 })
    }),
  )
}

describe('ScimSettings (issue 26 SCIM settings)', () => {
  it('shows the base URL and creates a token shown once, focused, with copy', async () => {
    serveScim({ has_token: false })
    const { user } = renderWithProviders(<ScimSettings companyId={7} />)
    expect(await screen.findByLabelText('SCIM base URL')).toHaveValue(BASE_URL)
    expect(screen.getByText('No token: provisioning is off.')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Create SCIM token' }))
    const token = await screen.findByLabelText('Your new SCIM token')
    expect(token).toHaveValue('scim_secret_1')
    expect(token).toHaveFocus()
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Copy Your new SCIM token' }))
    expect(await navigator.clipboard.readText()).toBe('scim_secret_1')
    expect(await screen.findByText('SCIM token copied.')).toBeInTheDocument()
    expect(await screen.findByText(/Active since/)).toBeInTheDocument()
  })

  it('replaces the token after a confirmation', async () => {
    serveScim({ has_token: true })
    const { user } = renderWithProviders(<ScimSettings companyId={7} />)
    await user.click(await screen.findByRole('button', { name: 'Replace token' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Replace the SCIM token?' })
    await user.click(within(dialog).getByRole('button', { name: 'Replace token' }))
    expect(await screen.findByLabelText('Your new SCIM token')).toHaveValue('scim_secret_1')
  })

  it('revokes the token after a confirmation and moves focus to the heading', async () => {
    serveScim({ has_token: true })
    const { user } = renderWithProviders(<ScimSettings companyId={7} />)
    await user.click(await screen.findByRole('button', { name: 'Revoke token' }))
    const dialog = await screen.findByRole('alertdialog', { name: 'Revoke the SCIM token?' })
    await user.click(within(dialog).getByRole('button', { name: 'Revoke token' }))
    expect(await screen.findByText('No token: provisioning is off.')).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.getByRole('heading', { name: 'Automatic provisioning (SCIM)' })).toHaveFocus(),
    )
    expect(screen.getByRole('button', { name: 'Create SCIM token' })).toBeInTheDocument()
  })

  it('shows the server error when the page is not for this person', async () => {
    server.use(
      http.get(apiUrl('/api/v1/company/7/scim'), () =>
        HttpResponse.json(
          { success: false, error: "This report is for your company's admins only." },
          { status: 403 },
        ),
      ),
    )
    renderWithProviders(<ScimSettings companyId={7} />)
    expect(await screen.findByRole('alert')).toHaveTextContent("company's admins only")
  })
})
