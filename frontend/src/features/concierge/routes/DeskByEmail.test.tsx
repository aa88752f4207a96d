import { screen, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { conciergesHandler, makeConcierge, makeDeskRequest, minutesAgo } from '../test/fixtures'
import DeskRequest from './DeskRequest'

function message(id: number, body: string, byEmail: boolean) {
  return {
    id,
    body_html: body,
    source: 'user' as const,
    source_name: 'Jane Doe',
    external_created_at: minutesAgo(10 - id),
    reopened_request: false,
    by_email: byEmail,
    attachment_keys: [],
    attachments: [],
  }
}

beforeEach(() => signInSession())

describe('issue 28 reply by email: the desk thread', () => {
  it('issue 28 reply by email: a message the employee sent by email says "by email", the others do not', async () => {
    server.use(
      conciergesHandler(),
      http.get(apiUrl('/api/v1/concierge/requests/:id'), () =>
        HttpResponse.json({
          request: makeDeskRequest({
            messages: [message(1, 'Written in the app', false), message(2, 'Tuesday works', true)],
          }),
        }),
      ),
    )
    renderWithProviders(<DeskRequest />, {
      route: '/concierge/requests/101',
      path: '/concierge/requests/:requestId',
      user: makeConcierge(),
    })
    const [inApp, emailed] = await screen.findAllByRole('article', {
      name: 'Message from Jane Doe',
    })
    expect(emailed).toHaveTextContent('Tuesday works')
    expect(within(emailed).getByText('by email')).toBeInTheDocument()
    expect(inApp).toHaveTextContent('Written in the app')
    expect(within(inApp).queryByText('by email')).not.toBeInTheDocument()
  })
})
