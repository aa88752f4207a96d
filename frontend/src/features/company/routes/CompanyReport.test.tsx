import { screen, within } from '@testing-library/react'
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
  top_categories: [{ name: 'Pet', count: 6 }],
})

/** A month whose figures the server withheld: 4 employees, 1 rating (null is never sent as a number). */
const withheldMonth = (key: string) => ({
  month: key,
  requests_created: null,
  requests_completed: null,
  median_first_response_hours: null,
  median_completion_hours: null,
  csat_average: null,
  csat_count: null,
  employees: null,
  employees_using: null,
  usage_share: null,
  top_categories: [],
})

function serve(months: unknown[]) {
  server.use(
    http.get(apiUrl('/api/v1/company/report'), () =>
      HttpResponse.json({ company: { id: 1, name: 'Acme Corp' }, months }),
    ),
  )
}

describe("issue 12 the employer's report", () => {
  it("issue 12 report: the month's figures, the top categories, and a table by month", async () => {
    serve([month('2026-10', 6), month('2026-11', 8)])
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    expect(
      await screen.findByRole('heading', { name: 'Acme Corp: concierge report' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('list', { name: 'Top categories' })).toHaveTextContent('Pet: 6')
    expect(screen.getByText('4.50')).toBeInTheDocument()
    expect(screen.getByText('10 of 40')).toBeInTheDocument()
    expect(screen.queryByText(/Fewer than 5/)).not.toBeInTheDocument()
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

  it('report: a report that failed to load offers Retry, which loads it', async () => {
    let calls = 0
    server.use(
      http.get(apiUrl('/api/v1/company/report'), () => {
        calls += 1
        return calls <= 2
          ? HttpResponse.error()
          : HttpResponse.json({
              company: { id: 1, name: 'Acme Corp' },
              months: [month('2026-11', 8)],
            })
      }),
    )
    const { user } = renderWithProviders(<CompanyReport />, { user: makeUser() })
    await user.click(await screen.findByRole('button', { name: 'Retry' }, { timeout: 3000 }))
    expect(
      await screen.findByRole('heading', { name: 'Acme Corp: concierge report' }),
    ).toBeInTheDocument()
  })

  it('report: an admin of several companies picks the company, whose report is shown and linked', async () => {
    const asked: (string | null)[] = []
    const names: Record<string, string> = { '1': 'Acme Corp', '2': 'Globex' }
    server.use(
      http.get(apiUrl('/api/v1/company/access'), () =>
        HttpResponse.json({
          companies: [
            { id: 1, name: 'Acme Corp' },
            { id: 2, name: 'Globex' },
          ],
        }),
      ),
      http.get(apiUrl('/api/v1/company/report'), ({ request }) => {
        const company = new URL(request.url).searchParams.get('company')
        asked.push(company)
        const id = Number(company ?? 1)
        return HttpResponse.json({
          company: { id, name: names[String(id)] },
          months: [month('2026-11', 8)],
        })
      }),
    )
    const { user } = renderWithProviders(<CompanyReport />, { user: makeUser(), route: '/company' })
    expect(
      await screen.findByRole('heading', { name: 'Acme Corp: concierge report' }),
    ).toBeInTheDocument()
    await user.selectOptions(await screen.findByRole('combobox', { name: 'Company' }), 'Globex')
    expect(
      await screen.findByRole('heading', { name: 'Globex: concierge report' }),
    ).toBeInTheDocument()
    expect(asked.at(-1)).toBe('2')
    expect(screen.getByRole('combobox', { name: 'Company' })).toHaveFocus()
    expect(screen.getByRole('link', { name: 'Members' })).toHaveAttribute(
      'href',
      '/company/members?company=2',
    )
  })

  it('report privacy: a withheld figure shows a “fewer than 5” placeholder with an accessible label, never a number', async () => {
    serve([month('2026-10', 6), withheldMonth('2026-11')])
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    const latest = await screen.findByRole('region', { name: /November 2026/ })
    const kpis = within(latest).getAllByRole('definition')
    expect(kpis[0]).toHaveTextContent('Fewer than 5 requests, hidden to protect privacy')
    expect(kpis[1]).toHaveTextContent('Fewer than 5 completed')
    expect(kpis[2]).toHaveTextContent('Based on fewer than 5 requests, hidden to protect privacy')
    expect(kpis[4]).toHaveTextContent('Fewer than 5 ratings, hidden to protect privacy')
    expect(kpis[6]).toHaveTextContent(
      'Hidden to protect privacy: fewer than 5 employees used the service, or fewer than 5 didn’t',
    )
    expect(within(latest).getAllByTitle(/hidden to protect privacy/i)).toHaveLength(4)
    expect(latest).not.toHaveTextContent(/\d+(\.\d+)? h|\d %|\bnull\b|NaN|undefined/)
    const [, november, october] = screen.getAllByRole('row')
    expect(within(november).getAllByTitle(/hidden to protect privacy/i)).toHaveLength(6)
    expect(november).toHaveTextContent('Fewer than 5 ratings, hidden to protect privacy')
    expect(within(october).queryByTitle(/hidden/i)).not.toBeInTheDocument()
    expect(within(latest).queryByRole('list', { name: 'Top categories' })).not.toBeInTheDocument()
    expect(within(latest).getByText('No category had 5 or more requests this month.')).toBeVisible()
  })

  it('report privacy: the page says figures about fewer than 5 people are hidden, and the charts say which months are gaps', async () => {
    serve([withheldMonth('2026-10'), month('2026-11', 8)])
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    expect(
      await screen.findByText(
        /To protect everyone’s privacy, figures about fewer than 5 people, requests or ratings are hidden\./,
      ),
    ).toBeVisible()
    expect(screen.getByText('Categories with fewer than 5 requests aren’t listed.')).toBeVisible()
    const csat = screen.getByRole('figure', { name: 'Satisfaction (average, 1–5)' })
    expect(
      within(csat).getByText('Months with fewer than 5 ratings are left out.'),
    ).toBeInTheDocument()
  })

  it('report privacy: when every month is withheld the charts say so instead of drawing empty axes', async () => {
    serve([withheldMonth('2026-10'), withheldMonth('2026-11')])
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    expect(await screen.findAllByText('No month has enough to show yet.')).toHaveLength(4)
    expect(screen.queryByText(/chart could not load/)).not.toBeInTheDocument()
  })

  it('report privacy: with every figure shown, no chart speaks of gaps', async () => {
    serve([month('2026-10', 6), month('2026-11', 8)])
    renderWithProviders(<CompanyReport />, { user: makeUser() })
    await screen.findByRole('heading', { name: 'Acme Corp: concierge report' })
    expect(screen.queryByText(/are left out/)).not.toBeInTheDocument()
  })
})
