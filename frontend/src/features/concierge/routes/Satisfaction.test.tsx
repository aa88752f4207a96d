import { screen, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { makeConcierge } from '../test/fixtures'
import Satisfaction from './Satisfaction'

beforeEach(() => signInSession())

describe('desk satisfaction', () => {
  it('desk satisfaction: ratings that failed to load say so and offer to try again', async () => {
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/ratings'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Server trouble' }, { status: 500 })
          : HttpResponse.json({
              overall: { id: null, name: 'All', average: 4.5, count: 2 },
              concierges: [],
              companies: [],
            }),
      ),
    )
    const { user } = renderWithProviders(<Satisfaction />, {
      route: '/concierge/satisfaction',
      user: makeConcierge(),
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load the ratings')
    expect(alert).toHaveTextContent('Server trouble')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('4.50')).toBeInTheDocument()
  })
})
