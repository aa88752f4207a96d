import { fireEvent, screen } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import RateByLink from './RateByLink'

const rating = (score: number, comment = '') => ({
  score,
  comment,
  created_at: new Date().toISOString(),
})

describe('issue 12 satisfaction: the completion email one-tap link', () => {
  it('issue 12 CSAT: the tapped score is recorded once on load, without signing in; then a comment', async () => {
    const posts: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), async ({ request }) => {
        posts.push(await request.json())
        return HttpResponse.json(
          { rating: rating(4), comment_key: 'k1', already_rated: false },
          { status: 201 },
        )
      }),
      http.post(apiUrl('/api/v1/ratings/link/comment'), async ({ request }) => {
        posts.push(await request.json())
        return HttpResponse.json({ rating: rating(4, 'Nice') })
      }),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/tok.en.sig?score=4', path: '/rate/:token' })
    expect(await screen.findByText('Thank you for your rating!')).toBeInTheDocument()
    expect(screen.getByText(/You rated your request 4 out of 5/)).toBeInTheDocument()
    fireEvent.change(screen.getByRole('textbox'), { target: { value: 'Nice' } })
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }))
    expect(await screen.findByText("Thanks, we've added your comment.")).toBeInTheDocument()
    expect(posts).toEqual([
      { token: 'tok.en.sig', score: 4 },
      { token: 'tok.en.sig', comment_key: 'k1', comment: 'Nice' },
    ])
  })

  it('a link opened after an in-app rating thanks with the recorded score, without a comment form', async () => {
    const posts: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), async ({ request }) => {
        posts.push(await request.json())
        return HttpResponse.json(
          { rating: rating(2), comment_key: null, already_rated: true },
          { status: 200 },
        )
      }),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/tok.en.sig?score=5', path: '/rate/:token' })
    expect(
      await screen.findByRole('heading', { name: 'Thank you, we already have your rating!' }),
    ).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent(
      'You rated this request 2 out of 5 (Poor). Your rating is kept as it is.',
    )
    expect(screen.getByRole('radio', { name: '2 out of 5: Poor' })).toBeChecked()
    expect(screen.getByRole('radio', { name: '5 out of 5: Excellent' })).not.toBeChecked()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
    expect(screen.queryByText("We couldn't record this rating")).not.toBeInTheDocument()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'See your requests' })).toHaveAttribute(
      'href',
      '/requests',
    )
    expect(posts).toEqual([{ token: 'tok.en.sig', score: 5 }])
  })

  it('issue 12 CSAT: an expired or forged link says why', async () => {
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), () =>
        HttpResponse.json(
          {
            success: false,
            error: 'This rating link has expired. You can still rate the request from its page.',
          },
          { status: 410 },
        ),
      ),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/abc?score=5', path: '/rate/:token' })
    expect(
      await screen.findByRole('heading', { name: "We couldn't record this rating" }),
    ).toBeInTheDocument()
    expect(screen.getByRole('alert')).toHaveTextContent(
      'This rating link has expired. You can still rate the request from its page.',
    )
  })

  it('the thanks for a comment takes the focus from the removed Send button (read out)', async () => {
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), () =>
        HttpResponse.json(
          { rating: rating(5), comment_key: 'k1', already_rated: false },
          { status: 201 },
        ),
      ),
      http.post(apiUrl('/api/v1/ratings/link/comment'), () =>
        HttpResponse.json({ rating: rating(5, 'Great') }),
      ),
    )
    const { user } = renderWithProviders(<RateByLink />, {
      route: '/rate/tok.en.sig?score=5',
      path: '/rate/:token',
    })
    await user.type(await screen.findByRole('textbox'), 'Great')
    await user.click(screen.getByRole('button', { name: 'Send comment' }))
    expect(await screen.findByText("Thanks, we've added your comment.")).toHaveFocus()
  })

  it('a rating that did not go through (no connection) can be tried again from the page', async () => {
    let calls = 0
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), () => {
        calls += 1
        if (calls === 1) return HttpResponse.error()
        return HttpResponse.json(
          { rating: rating(3), comment_key: 'k1', already_rated: false },
          { status: 201 },
        )
      }),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/abc?score=3', path: '/rate/:token' })
    expect(
      await screen.findByRole('heading', { name: "We couldn't record this rating" }),
    ).toBeInTheDocument()
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }))
    expect(await screen.findByText('Thank you for your rating!')).toBeInTheDocument()
    expect(calls).toBe(2)
  })

  it('an expired link offers no Try again (it would fail the same way)', async () => {
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), () =>
        HttpResponse.json(
          { success: false, error: 'This rating link is not valid.' },
          { status: 404 },
        ),
      ),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/abc?score=5', path: '/rate/:token' })
    expect(await screen.findByRole('alert')).toHaveTextContent('This rating link is not valid.')
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument()
  })
})
