import { screen, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { DataExportSection } from './DataExportSection'
import { RetentionNotice } from './RetentionNotice'

const ALREADY = "We're already preparing your data. We'll email you a link as soon as it's ready."

describe('Issue 27 Download my data', () => {
  it("asks for the data, then says we'll email a link while it is prepared", async () => {
    let status = 'none'
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status })),
      http.post(apiUrl('/api/v1/users/data_export'), () => {
        status = 'pending'
        return HttpResponse.json({ status, message: 'ok' }, { status: 202 })
      }),
    )
    const { user } = renderWithProviders(<DataExportSection />, { route: '/account' })
    const section = within(screen.getByRole('region', { name: 'Your data' }))
    await user.click(await section.findByRole('button', { name: 'Download my data' }))
    expect(
      await section.findByText(/We're preparing your data. We'll email you a link/),
    ).toBeInTheDocument()
    expect(section.queryByRole('button', { name: 'Download my data' })).not.toBeInTheDocument()
  })

  it("a second request while one is prepared shows the server's polite message", async () => {
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status: 'none' })),
      http.post(apiUrl('/api/v1/users/data_export'), () =>
        HttpResponse.json({ success: false, error: ALREADY }, { status: 409 }),
      ),
    )
    const { user } = renderWithProviders(<DataExportSection />, { route: '/account' })
    await user.click(await screen.findByRole('button', { name: 'Download my data' }))
    expect(await screen.findByText(ALREADY)).toBeInTheDocument()
  })
})

describe('Issue 27 retention', () => {
  it("the request page says when the request's messages will be erased", async () => {
    server.use(
      http.get(apiUrl('/api/v1/requests/7/retention'), () =>
        HttpResponse.json({ erase_on: '2027-03-12', erased: false }),
      ),
    )
    renderWithProviders(<RetentionNotice requestId={7} />, { route: '/requests/7' })
    expect(
      await screen.findByText("This request's messages will be erased on March 12, 2027."),
    ).toBeInTheDocument()
  })
})
