import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { SavedReply } from '../api'
import { makeConcierge } from '../test/fixtures'
import SavedReplies from './SavedReplies'

beforeEach(() => signInSession())

function savedReply(id: number, title: string): SavedReply {
  return {
    id,
    title,
    body: `Hi {first_name}, ${title.toLowerCase()}.`,
    updated_by: { id: 7, full_name: 'Sam Lee' },
    updated_at: new Date().toISOString(),
  }
}

/** The saved replies API over a list in memory. */
function savedRepliesServer(initial: SavedReply[]) {
  let replies = initial
  const base = '/api/v1/concierge/saved-replies'
  server.use(
    http.get(apiUrl(base), () => HttpResponse.json({ saved_replies: replies })),
    http.post(apiUrl(base), async ({ request }) => {
      const input = (await request.json()) as { title: string; body: string }
      const reply = { ...savedReply(100 + replies.length, input.title), body: input.body }
      replies = [...replies, reply]
      return HttpResponse.json({ saved_reply: reply }, { status: 201 })
    }),
    http.put(apiUrl(`${base}/:id`), async ({ request, params }) => {
      const input = (await request.json()) as { title: string; body: string }
      replies = replies.map((r) => (r.id === Number(params.id) ? { ...r, ...input } : r))
      return HttpResponse.json({ saved_reply: replies.find((r) => r.id === Number(params.id)) })
    }),
    http.delete(apiUrl(`${base}/:id`), ({ params }) => {
      replies = replies.filter((r) => r.id !== Number(params.id))
      return new HttpResponse(null, { status: 204 })
    }),
  )
}

function renderSavedReplies() {
  return renderWithProviders(<SavedReplies />, {
    route: '/concierge/saved-replies',
    path: '/concierge/saved-replies',
    user: makeConcierge(),
  })
}

async function card(title: string) {
  const list = await screen.findByRole('list', { name: 'Saved replies' })
  return within(within(list).getByRole('heading', { name: title }).closest('li') as HTMLElement)
}

describe('saved replies: focus stays with the concierge', () => {
  it('saved replies: New puts focus in the title; adding or cancelling brings it back to New', async () => {
    savedRepliesServer([savedReply(1, 'All done')])
    const { user } = renderSavedReplies()
    await user.click(await screen.findByRole('button', { name: 'New saved reply' }))
    const form = within(screen.getByRole('region', { name: 'New saved reply' }))
    expect(form.getByRole('textbox', { name: 'Title' })).toHaveFocus()

    await user.click(form.getByRole('button', { name: 'Cancel' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'New saved reply' })).toHaveFocus(),
    )

    await user.keyboard('{Enter}')
    await user.keyboard('On it')
    await user.type(screen.getByRole('textbox', { name: 'Reply' }), 'Hi {first_name}!')
    await user.click(screen.getByRole('button', { name: 'Add saved reply' }))
    expect(await card('On it')).toBeTruthy()
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'New saved reply' })).toHaveFocus(),
    )
  })

  it('saved replies: Edit puts focus in the title; Save and Cancel bring it back to Edit', async () => {
    savedRepliesServer([savedReply(1, 'All done')])
    const { user } = renderSavedReplies()
    await user.click((await card('All done')).getByRole('button', { name: /^Edit.*All done/ }))
    const title = screen.getByRole('textbox', { name: 'Title' })
    expect(title).toHaveFocus()

    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Edit.*All done/ })).toHaveFocus(),
    )

    await user.keyboard('{Enter}')
    await user.clear(screen.getByRole('textbox', { name: 'Title' }))
    await user.keyboard('All set')
    await user.click(screen.getByRole('button', { name: 'Save changes' }))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /^Edit.*All set/ })).toHaveFocus(),
    )
  })

  it('saved replies: Delete moves focus to Keep it, Keep it back to Delete, and a deletion to the heading', async () => {
    savedRepliesServer([savedReply(1, 'All done'), savedReply(2, 'On it')])
    const { user } = renderSavedReplies()
    const allDone = await card('All done')
    await user.click(allDone.getByRole('button', { name: /^Delete.*All done/ }))
    await waitFor(() => expect(allDone.getByRole('button', { name: 'Keep it' })).toHaveFocus())

    await user.keyboard('{Enter}')
    await waitFor(() =>
      expect(allDone.getByRole('button', { name: /^Delete.*All done/ })).toHaveFocus(),
    )

    await user.keyboard('{Enter}')
    await user.click(allDone.getByRole('button', { name: /^Delete for everyone.*All done/ }))
    await waitFor(() =>
      expect(screen.queryByRole('heading', { name: 'All done' })).not.toBeInTheDocument(),
    )
    expect(screen.getByRole('heading', { level: 1, name: 'Saved replies' })).toHaveFocus()
  })

  it('saved replies: a missing title or text moves focus to the field, which reads its error out', async () => {
    savedRepliesServer([])
    const { user } = renderSavedReplies()
    await user.click(await screen.findByRole('button', { name: 'New saved reply' }))
    const title = screen.getByRole('textbox', { name: 'Title' })
    const reply = screen.getByRole('textbox', { name: 'Reply' })
    screen.getByRole('button', { name: 'Add saved reply' }).focus()
    await user.keyboard('{Enter}')
    expect(title).toHaveFocus()
    expect(title).toHaveAccessibleDescription('Please give the saved reply a title.')

    await user.type(title, 'On it')
    await user.click(screen.getByRole('button', { name: 'Add saved reply' }))
    expect(reply).toHaveFocus()
    expect(reply).toHaveAccessibleDescription(/Please write the reply\.$/)
  })
})

describe('saved replies: loading', () => {
  it('saved replies: a list that failed to load says so and offers to try again', async () => {
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/saved-replies'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Server trouble' }, { status: 500 })
          : HttpResponse.json({ saved_replies: [savedReply(1, 'All done')] }),
      ),
    )
    const { user } = renderSavedReplies()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load the saved replies')
    expect(alert).toHaveTextContent('Server trouble')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Try again' }))
    expect(await card('All done')).toBeTruthy()
  })
})
