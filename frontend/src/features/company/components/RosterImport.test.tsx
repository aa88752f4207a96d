import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { createTestQueryClient, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { type MembersPage, membersQuery } from '../api'
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
    expect(preview).toHaveTextContent('1 row with errors (skipped)')
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

  it('loads the members list again after an import, not after a preview', async () => {
    serveRoster([])
    const queryClient = createTestQueryClient()
    const members = membersQuery(7, { search: '', status: '', page: 1 }).queryKey
    queryClient.setQueryData(members, { members: [] } as unknown as MembersPage)
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />, {
      queryClient,
    })
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File([CSV], 'staff.csv', { type: 'text/csv' }))
    await screen.findByRole('heading', { name: 'Preview: nothing has changed yet' })
    expect(queryClient.getQueryState(members)?.isInvalidated).toBe(false)

    await user.click(screen.getByRole('button', { name: 'Import 3 changes' }))
    await screen.findByRole('heading', { name: 'Imported' })
    await waitFor(() => expect(queryClient.getQueryState(members)?.isInvalidated).toBe(true))
  })

  it('after "Import another file" the focus is on the section, not lost with the button', async () => {
    serveRoster([])
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File([CSV], 'staff.csv', { type: 'text/csv' }))
    await user.click(await screen.findByRole('button', { name: 'Import 3 changes' }))
    await user.click(await screen.findByRole('button', { name: 'Import another file' }))
    expect(screen.getByRole('heading', { name: 'Roster import' })).toHaveFocus()
  })

  it('lets the same file be chosen again after its check failed', async () => {
    let previews = 0
    server.use(
      http.post(apiUrl('/api/v1/company/7/roster/preview'), () => {
        previews += 1
        return previews === 1 ? HttpResponse.error() : HttpResponse.json(result(false))
      }),
    )
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    const file = new File([CSV], 'staff.csv', { type: 'text/csv' })
    await user.upload(input, file)
    expect(await screen.findByRole('alert')).toHaveTextContent(/./)

    await user.upload(input, file)
    expect(
      await screen.findByRole('heading', { name: 'Preview: nothing has changed yet' }),
    ).toBeInTheDocument()
    expect(previews).toBe(2)
  })

  it('says "1 change" and "1 row with errors", not "1 changes" and "1 rows"', async () => {
    const one = (applied: boolean): RosterResult => ({
      counts: { create: 1, update: 0, deactivate: 0, reactivate: 0, unchanged: 0, error: 1 },
      rows: [{ row: 2, email: 'new@acme.example', action: 'create', changes: [], reason: '' }],
      listed_all: true,
      applied,
    })
    server.use(
      http.post(apiUrl('/api/v1/company/7/roster/preview'), () => HttpResponse.json(one(false))),
      http.post(apiUrl('/api/v1/company/7/roster/apply'), () => HttpResponse.json(one(true))),
    )
    const { user, container } = renderWithProviders(<RosterImport companyId={7} />)
    const input = container.querySelector('input[type="file"]') as HTMLInputElement
    await user.upload(input, new File([CSV], 'one.csv', { type: 'text/csv' }))
    const importButton = await screen.findByRole('button', { name: 'Import 1 change' })
    expect(screen.getByRole('list', { name: 'Preview' })).toHaveTextContent(
      '1 row with errors (skipped)',
    )
    await user.click(importButton)
    expect(await screen.findByText('Roster imported: 1 change.')).toBeInTheDocument()
  })
})
