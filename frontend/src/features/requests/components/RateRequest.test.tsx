import { fireEvent, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { RateRequest } from './RateRequest'

beforeEach(() => signInSession())

const rated = (score: number, comment = '') => ({
  can_rate: false,
  rating: { score, comment, created_at: new Date().toISOString() },
})

describe('issue 12 satisfaction: rating a completed request from its page', () => {
  it('issue 12 CSAT: one tap records the rating; a comment can follow', async () => {
    const sent: unknown[] = []
    server.use(
      http.get(apiUrl('/api/v1/requests/7/rating'), () =>
        HttpResponse.json({ can_rate: true, rating: null }),
      ),
      http.post(apiUrl('/api/v1/requests/7/rating'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(rated(5), { status: 201 })
      }),
      http.patch(apiUrl('/api/v1/requests/7/rating'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(rated(5, 'Great'))
      }),
    )
    renderWithProviders(<RateRequest requestId={7} />, { user: makeUser() })
    expect(await screen.findByRole('heading', { name: 'How did we do?' })).toBeInTheDocument()
    fireEvent.click(screen.getByRole('radio', { name: '5 out of 5: Excellent' }))
    expect(await screen.findByText(/You rated this request 5 out of 5/)).toBeInTheDocument()
    fireEvent.change(screen.getByRole('textbox', { name: /Anything you'd like to add/ }), {
      target: { value: 'Great' },
    })
    fireEvent.click(screen.getByRole('button', { name: 'Send comment' }))
    expect(await screen.findByText(/“Great”/)).toBeInTheDocument()
    expect(sent).toEqual([{ score: 5, comment: '' }, { comment: 'Great' }])
    expect(screen.queryByRole('button', { name: 'Send comment' })).toBeNull()
  })

  it('§7 request thread: the card tells the page when it appears and when it changes, so it can keep it in view', async () => {
    server.use(
      http.get(apiUrl('/api/v1/requests/8/rating'), () =>
        HttpResponse.json({ can_rate: true, rating: null }),
      ),
      http.post(apiUrl('/api/v1/requests/8/rating'), () =>
        HttpResponse.json(rated(4), { status: 201 }),
      ),
    )
    const shown = vi.fn()
    renderWithProviders(<RateRequest requestId={8} onShown={shown} />, { user: makeUser() })
    expect(await screen.findByRole('heading', { name: 'How did we do?' })).toBeInTheDocument()
    expect(shown).toHaveBeenCalledTimes(1)
    fireEvent.click(screen.getByRole('radio', { name: '4 out of 5: Good' }))
    expect(await screen.findByText(/You rated this request 4 out of 5/)).toBeInTheDocument()
    expect(shown).toHaveBeenCalledTimes(2)
  })

  it('issue 12 CSAT, keyboard: the arrow keys move between the faces without rating; Space rates the face in focus', async () => {
    const sent: unknown[] = []
    server.use(
      http.get(apiUrl('/api/v1/requests/9/rating'), () =>
        HttpResponse.json({ can_rate: true, rating: null }),
      ),
      http.post(apiUrl('/api/v1/requests/9/rating'), async ({ request }) => {
        sent.push(await request.json())
        return HttpResponse.json(rated(3), { status: 201 })
      }),
    )
    const user = userEvent.setup()
    renderWithProviders(<RateRequest requestId={9} />, { user: makeUser() })
    await screen.findByRole('heading', { name: 'How did we do?' })

    await user.tab()
    expect(screen.getByRole('radio', { name: '1 out of 5: Very poor' })).toHaveFocus()
    await user.keyboard('{ArrowRight}{ArrowRight}')
    const ok = screen.getByRole('radio', { name: '3 out of 5: OK' })
    expect(ok).toHaveFocus()
    expect(ok).not.toBeChecked()
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(sent).toEqual([])

    await user.keyboard(' ')
    expect(await screen.findByText(/You rated this request 3 out of 5/)).toBeInTheDocument()
    expect(sent).toEqual([{ score: 3, comment: '' }])
  })

  it('issue 12 CSAT: nothing to rate (not completed) shows nothing', async () => {
    let asked = 0
    server.use(
      http.get(apiUrl('/api/v1/requests/8/rating'), () => {
        asked += 1
        return HttpResponse.json({ can_rate: false, rating: null })
      }),
    )
    renderWithProviders(<RateRequest requestId={8} />, { user: makeUser() })
    await waitFor(() => expect(asked).toBe(1))
    await new Promise((resolve) => setTimeout(resolve, 50))
    expect(screen.queryByRole('heading')).toBeNull()
    expect(screen.queryByRole('radio')).toBeNull()
  })
})
