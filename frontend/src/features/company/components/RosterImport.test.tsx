import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { RosterResult } from '../provisioningApi'
import { RosterImport } from './RosterImport'

beforeEach(() => signInSession())

const CSV = 'email,employee id,first name,last name,status\nnew@acme.example,E1,New,Person,active\n'

function result(applied: boolean): RosterResult {
  return {
    counts: { create: 1, update: 1, deactivate: 1, reactivate: 0, unchanged: 4, error: 1 },
    rows: [
      { row: 2, email: 'new@acme.example', action: 'create', changes: [], reason: '' },
      { row: 3, email: 'ada@acme.example', action: 'update', changes: ['employee_id'], reason: '' },
      { row: 4, email: 'leaver@acme.example', action: 'deactivate', changes: [], reason: '' },
      {
        row: 5,
        email: 'not-an-email',
        action: 'error',
        changes: [],
        reason: "'not-an-email' is not an email address.",
      },
    ],
    listed_all: true,
    applied,
  }
}

function serveRoster(calls: string[]) {
  server.use(
    // The file goes as the multipart part 'file' (jsdom's File loses its bytes on the way
    // into Node's fetch, so only the part is checked here; the browser test sends real ones).
    http.post(apiUrl('/api/v1/company/7/roster/preview'), async ({ request }) => {
      const type = request.headers.get('content-type')?.split(';')[0]
      calls.push(`preview:${type}:${(await request.formData()).has('file')}`)
      return HttpResponse.json(result(false))
    }),
    http.post(apiUrl('/api/v1/company/7/roster/apply'), async ({ request }) => {
      const type = request.headers.get('content-type')?.split(';')[0]
      calls.push(`apply:${type}:${(await request.formData()).has('file')}`)
      return HttpResponse.json(result(true))
    }),
  )
}

describe('RosterImport (issue 26 roster import)', () => {
  it('previews the CSV row by row, then applies it and shows the result', async () => {
    const calls: string[] = []
    serveRoster(calls)
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File([CSV], 'staff.csv', { type: 'text/csv' }))

    const heading = await screen.findByRole('heading', { name: 'Preview: nothing has changed yet' })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(calls).toEqual(['preview:multipart/form-data:true'])
    const preview = screen.getByRole('list', { name: 'Preview' })
    expect(within(preview).getByText('to add').parentElement).toHaveTextContent('1 to add')
    expect(preview).toHaveTextContent('1 rows with errors (skipped)')
    const table = screen.getByRole('table')
    const rows = within(table).getAllByRole('row')
    expect(rows[2]).toHaveTextContent('ada@acme.example')
    expect(rows[2]).toHaveTextContent('Changes employee id')
    expect(rows[4]).toHaveTextContent('5')
    expect(rows[4]).toHaveTextContent("'not-an-email' is not an email address.")

    await user.click(screen.getByRole('button', { name: 'Import 3 changes' }))
    const done = await screen.findByRole('heading', { name: 'Imported' })
    await waitFor(() => expect(done).toHaveFocus())
    expect(calls[1]).toBe('apply:multipart/form-data:true')
    expect(screen.getByRole('list', { name: 'Import result' })).toHaveTextContent('1 added')
    expect(await screen.findByText('Roster imported: 3 changes.')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Import another file' }))
    expect(screen.queryByRole('table')).not.toBeInTheDocument()
  })

  it('shows why a file is refused', async () => {
    server.use(
      http.post(apiUrl('/api/v1/company/7/roster/preview'), () =>
        HttpResponse.json(
          {
            success: false,
            error: "The file needs a header row with an 'email' column.",
            errors: { file: ["The file needs a header row with an 'email' column."] },
          },
          { status: 422 },
        ),
      ),
    )
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File(['name\nAda\n'], 'bad.csv', { type: 'text/csv' }))
    expect(await screen.findByText(/needs a header row with an 'email' column/)).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: /Import/ })).not.toBeInTheDocument()
  })

  it('offers nothing to import when the file changes nothing', async () => {
    server.use(
      http.post(apiUrl('/api/v1/company/7/roster/preview'), () =>
        HttpResponse.json({
          counts: { create: 0, update: 0, deactivate: 0, reactivate: 0, unchanged: 3, error: 0 },
          rows: [],
          listed_all: true,
          applied: false,
        }),
      ),
    )
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File([CSV], 'same.csv', { type: 'text/csv' }))
    expect(await screen.findByRole('button', { name: 'Nothing to import' })).toBeDisabled()
  })
})
