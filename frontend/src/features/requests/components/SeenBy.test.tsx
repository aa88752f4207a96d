import { screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { formatWhen } from '@/lib/format'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { SeenBy } from './SeenBy'

beforeEach(() => signInSession())

const NOW = new Date('2026-11-24T15:00:00')
const OPENED = '2026-11-24T10:02:00'

function renderSeenBy() {
  return renderWithProviders(<SeenBy requestId={7} now={NOW} />, { user: makeUser() })
}

describe('SeenBy (issue 27 access transparency)', () => {
  it('lists who on the concierge side opened the request, with their role and when', async () => {
    server.use(
      http.get(apiUrl('/api/v1/requests/7/seen_by'), () =>
        HttpResponse.json({
          seen_by: [
            { name: 'Casey', role: 'concierge', at: OPENED },
            { name: 'Sam', role: 'superuser', at: '2026-11-23T09:00:00' },
          ],
        }),
      ),
    )
    renderSeenBy()
    const section = await screen.findByRole('region', { name: 'Who opened this request' })
    expect(section).toHaveTextContent(
      `Seen by Casey (Concierge) · ${formatWhen(OPENED, { now: NOW })}, Sam (Support)`,
    )
    expect(section.querySelector('time')).toHaveAttribute('datetime', OPENED)
  })

  it('shows nothing while nobody has opened it', async () => {
    renderSeenBy()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByTestId('seen-by')).not.toBeInTheDocument()
  })
})
