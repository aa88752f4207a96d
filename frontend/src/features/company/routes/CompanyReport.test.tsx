import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import CompanyReport from './CompanyReport'

beforeEach(() => signInSession())

const month = (key: string, created: number) => ({
  month: key,
  requests_created: created,
  requests_completed: created - 1,
  median_first_response_hours: 2.5,
  median_completion_hours: 30,
  csat_average: 4.5,
  csat_count: 2,
  employees: 40,
  employees_using: 10,
  usage_share: 0.25,
  top_categories: [
    { name: 'Pet', count: 6, display: '6' },
    { name: 'Home', count: null, display: '< 5' },
  ],
})

describe("issue 12 the employer's report", () => {
  it("issue 12 report: the month's figures, '< 5' for small categories, and a table by month", async () => {
    server.use(
      http.get(apiUrl('/api/v1/company/report'), () =>
        HttpResponse.json({
          company: { id: 1, name: 'Acme Corp' },
          months: [month('2026-10', 3), month('2026-11', 8)],
        }),
      ),
    )
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    expect(
      await screen.findByRole('heading', { name: 'Acme Corp: concierge report' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('list', { name: 'Top categories' })).toHaveTextContent('Home: < 5')
    expect(screen.getAllByText('25 %').length).toBeGreaterThan(0)
    expect(await screen.findAllByText(/chart could not load/)).toHaveLength(4) // jsdom has no canvas
    expect(screen.getAllByRole('row')).toHaveLength(3)
    expect(screen.getByRole('button', { name: 'Download CSV' })).toBeInTheDocument()
  })

  it('issue 12 report: someone who is not a company admin is told so', async () => {
    server.use(
      http.get(apiUrl('/api/v1/company/report'), () =>
        HttpResponse.json(
          { success: false, error: "This report is for your company's admins only." },
          { status: 403 },
        ),
      ),
    )
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "This report is for your company's admins only.",
    )
  })
})
