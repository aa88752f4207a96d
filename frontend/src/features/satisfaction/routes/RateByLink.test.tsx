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
        return HttpResponse.json({ rating: rating(4), comment_key: 'k1' }, { status: 201 })
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

  it('issue 12 CSAT: a used or expired link says why', async () => {
    server.use(
      http.post(apiUrl('/api/v1/ratings/link'), () =>
        HttpResponse.json(
          { success: false, error: 'You already rated this request. Thank you!' },
          { status: 409 },
        ),
      ),
    )
    renderWithProviders(<RateByLink />, { route: '/rate/abc?score=5', path: '/rate/:token' })
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'You already rated this request. Thank you!',
    )
  })
})
