import { onlineManager } from '@tanstack/react-query'
import { act, screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { requestKeys } from '@/features/conversation'
import { renderWithProviders, signInSession } from '@/test/render'
import { listHandlers, listItem, makeRequest } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import { LatestRequest } from './LatestRequest'

beforeEach(() => signInSession())
afterEach(() => onlineManager.setOnline(true))

describe('the Dashboard’s latest request', () => {
  it('§8 Dashboard: a background refetch that fails keeps the latest request on screen', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    let fail = false
    server.use(
      http.get(apiUrl('/api/v1/requests/:bucket'), ({ params }) =>
        fail
          ? HttpResponse.json({ success: false, error: 'Boom' }, { status: 502 })
          : HttpResponse.json({
              requests:
                params.bucket === 'open' ? [listItem(makeRequest({ name: 'Book a vet' }))] : [],
            }),
      ),
    )
    const { queryClient } = renderWithProviders(<LatestRequest />)
    expect(await screen.findByRole('link', { name: /Book a vet/ })).toBeInTheDocument()

    fail = true
    await act(() => queryClient.refetchQueries({ queryKey: requestKeys.lists() }))
    await waitFor(() =>
      expect(queryClient.getQueryState(requestKeys.list('open'))?.status).toBe('error'),
    )
    expect(screen.getByRole('link', { name: /Book a vet/ })).toBeInTheDocument()
    expect(screen.queryByText("We couldn't load your latest request.")).toBeNull()
  })

  it('§2 Dashboard: offline, the latest request says it will load once back online, then loads', async () => {
    server.use(...listHandlers({ open: [makeRequest({ name: 'Book a vet' })] }))
    onlineManager.setOnline(false)
    renderWithProviders(<LatestRequest />)
    expect(
      await screen.findByText(/Your latest request will load when you’re back online\./),
    ).toBeInTheDocument()
    expect(screen.queryByRole('status', { name: 'Loading your latest request' })).toBeNull()

    act(() => onlineManager.setOnline(true))
    expect(await screen.findByRole('link', { name: /Book a vet/ })).toBeInTheDocument()
  })

  it('§2 Dashboard: a long request name shows on up to two lines, not cut to one', async () => {
    const name = 'Book a table for six at the Italian place near the office for Saturday evening'
    server.use(...listHandlers({ open: [makeRequest({ name })] }))
    renderWithProviders(<LatestRequest />)
    const shown = await screen.findByText(name)
    expect(shown).toHaveClass('line-clamp-2', 'break-words')
    expect(shown).not.toHaveClass('truncate')
  })
})
