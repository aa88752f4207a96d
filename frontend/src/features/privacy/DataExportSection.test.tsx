import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { BUILD_FAILED, DataExportSection } from './DataExportSection'
import { RetentionNotice } from './RetentionNotice'

const ALREADY = "We're already preparing your data. We'll email you a link as soon as it's ready."

/** 'Download my data' pressed, with no export before: the section, as it then reads. */
async function askForData() {
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
  return section
}

describe('Issue 27 Download my data', () => {
  it('asked while the first read of its state is still under way, it stays asked when that read lands', async () => {
    let answerFirstRead: () => void = () => {}
    const firstRead = new Promise<void>((resolve) => {
      answerFirstRead = resolve
    })
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), async () => {
        await firstRead
        return HttpResponse.json({ status: 'none' })
      }),
      http.post(apiUrl('/api/v1/users/data_export'), () =>
        HttpResponse.json({ status: 'pending', message: 'ok' }, { status: 202 }),
      ),
    )
    const { user } = renderWithProviders(<DataExportSection />, { route: '/account' })
    const section = within(screen.getByRole('region', { name: 'Your data' }))
    await user.click(await section.findByRole('button', { name: 'Download my data' }))
    await section.findByText(/We're preparing your data/)
    answerFirstRead()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(section.getByText(/We're preparing your data/)).toBeInTheDocument()
    expect(section.queryByRole('button', { name: 'Download my data' })).toBeNull()
  })

  it("asks for the data, then says we'll email a link while it is prepared", async () => {
    const section = await askForData()
    expect(
      await section.findByText(/We're preparing your data. We'll email you a link/),
    ).toBeInTheDocument()
    expect(section.queryByRole('button', { name: 'Download my data' })).not.toBeInTheDocument()
  })

  it('the focus moves to the message that replaces the button, not to the page top', async () => {
    const section = await askForData()
    const preparing = await section.findByText(/We're preparing your data/)
    await waitFor(() => expect(preparing).toHaveFocus())
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

describe('Issue 27 Download my data: a build that failed', () => {
  it('says it failed and offers to ask again, instead of preparing for ever', async () => {
    let status = 'running'
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status })),
      http.post(apiUrl('/api/v1/users/data_export'), () => {
        status = 'pending'
        return HttpResponse.json({ status, message: 'ok' }, { status: 202 })
      }),
    )
    const { user, queryClient } = renderWithProviders(<DataExportSection />, {
      route: '/account',
    })
    const section = within(screen.getByRole('region', { name: 'Your data' }))
    expect(await section.findByText(/We're preparing your data/)).toBeInTheDocument()
    status = 'failed'
    await queryClient.invalidateQueries()
    expect(await section.findByRole('status')).toHaveTextContent(BUILD_FAILED)
    await user.click(section.getByRole('button', { name: 'Download my data' }))
    expect(await section.findByText(/We're preparing your data/)).toBeInTheDocument()
    expect(section.queryByText(BUILD_FAILED)).not.toBeInTheDocument()
  })
})

describe('Issue 27 Download my data: the link emailed before', () => {
  it('says until when it works, and nothing of it once it expired', async () => {
    const day = 86_400_000
    let expires = new Date(Date.now() + day).toISOString()
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () =>
        HttpResponse.json({ status: 'ready', expires_at: expires }),
      ),
    )
    const { queryClient } = renderWithProviders(<DataExportSection />, { route: '/account' })
    const section = within(screen.getByRole('region', { name: 'Your data' }))
    expect(await section.findByText(/We emailed you a link. It works once, until/)).toBeVisible()
    expires = new Date(Date.now() - day).toISOString()
    await queryClient.invalidateQueries()
    await waitFor(() => expect(section.queryByText(/We emailed you a link/)).toBeNull())
    expect(section.getByRole('button', { name: 'Download my data' })).toBeInTheDocument()
  })
})

describe('Issue 27 Download my data: the emailed link', () => {
  it('posts the token of the address fragment and takes it out of the address', async () => {
    const posted: unknown[] = []
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status: 'ready' })),
      http.post(apiUrl('/api/v1/users/data_export/download'), async ({ request }) => {
        posted.push(await request.json())
        return new HttpResponse('zip', {
          headers: { 'Content-Type': 'application/zip' },
        })
      }),
    )
    URL.createObjectURL = () => 'blob:zip'
    URL.revokeObjectURL = () => undefined
    const { user, router } = renderWithProviders(<DataExportSection />, {
      route: '/account/data#tok_en-123',
      path: '/account/data',
    })
    const section = within(screen.getByRole('region', { name: 'Your data' }))
    expect(section.getByText(/Your copy is ready/)).toBeInTheDocument()
    expect(router.state.location.hash).toBe('')
    // The Account page opens at the download, not at its top, screens above it on a phone.
    expect(section.getByRole('button', { name: 'Download my data (zip)' })).toHaveFocus()
    await user.click(section.getByRole('button', { name: 'Download my data (zip)' }))
    const downloaded = await section.findByText('Downloaded: my-data.zip.')
    await waitFor(() => expect(downloaded).toHaveFocus())
    expect(posted).toEqual([{ token: 'tok_en-123' }])
  })

  it("says the server's message when the link was already used", async () => {
    const USED = 'This download link was already used. Ask for your data again on the Account page.'
    server.use(
      http.get(apiUrl('/api/v1/users/data_export'), () => HttpResponse.json({ status: 'none' })),
      http.post(apiUrl('/api/v1/users/data_export/download'), () =>
        HttpResponse.json({ success: false, error: USED }, { status: 410 }),
      ),
    )
    const { user } = renderWithProviders(<DataExportSection />, {
      route: '/account/data#tok_en-123',
      path: '/account/data',
    })
    await user.click(screen.getByRole('button', { name: 'Download my data (zip)' }))
    expect(await screen.findByText(USED)).toBeInTheDocument()
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
