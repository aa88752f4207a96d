import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import Company from './Company'

beforeEach(() => signInSession())

describe("issue 26 the company admin's pages", () => {
  it('issue 26: /company/members opens the members page (its own chunk)', async () => {
    server.use(
      http.get(apiUrl('/api/v1/company/access'), () =>
        HttpResponse.json({ companies: [{ id: 7, name: 'Acme Corp' }] }),
      ),
      http.get(apiUrl('/api/v1/company/7/members'), () =>
        HttpResponse.json({
          company: { id: 7, name: 'Acme Corp' },
          join_policy: 'open',
          total: 0,
          page: 1,
          page_size: 25,
          members: [],
        }),
      ),
      http.get(apiUrl('/api/v1/company/7/invites'), () =>
        HttpResponse.json({ join_policy: 'open', invites_needed: false, invites: [] }),
      ),
    )
    renderWithProviders(<Company />, {
      user: makeUser(),
      route: '/company/members/',
      path: '/company/*',
    })
    expect(await screen.findByRole('heading', { name: 'Acme Corp: members' })).toBeInTheDocument()
    expect(await screen.findByText('No one has joined yet.')).toBeInTheDocument()
  })

  it('issue 26: an unknown /company/ address goes to the not-found page', async () => {
    renderWithProviders(<Company />, {
      user: makeUser(),
      route: '/company/nothing',
      path: '/company/*',
    })
    expect(await screen.findByTestId('location')).toHaveTextContent('/not-found')
  })
})
