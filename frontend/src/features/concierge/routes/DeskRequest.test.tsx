import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RequestStatus } from '@/api/enums'
import type { RequestMessage } from '@/features/conversation'
import { renderWithProviders, signInSession } from '@/test/render'
import { sentMessage } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import {
  type DeskRequest as DeskRequestData,
  deskKeys,
  type ReplyCreated,
  type StatusAction,
} from '../api'
import { UNDO_COMPLETE_MS } from '../components/RequestHeader'
import { PRESENCE_HEARTBEAT_MS } from '../lib/usePresence'
import {
  conciergesHandler,
  ME,
  makeConcierge,
  makeDeskRequest,
  minutesAgo,
  SAM,
} from '../test/fixtures'
import DeskRequest, { deskRequestTitle } from './DeskRequest'

const STORAGE = 'https://storage.example.test/bucket'

/** What each status action leaves the request in, as the server answers it. */
const NEXT_STATUS: Record<StatusAction, RequestStatus> = {
  start: 'in_progress',
  complete: 'closed',
  reopen: 'open',
  undo_complete: 'in_progress',
}

interface Recorded {
  method: string
  path: string
  body: unknown
  headers: Headers
}

/** A reply's 201, as the API answers it: the reply and the request's fields it changed. */
function replyAnswer(request: DeskRequestData, message: RequestMessage): ReplyCreated {
  const { id, status, assignee, last_message_at, waiting_on, sla = null } = request
  return { message, change: { id, status, assignee, last_message_at, waiting_on, sla } }
}

/**
 * A small desk server: GET answers `state.request` (counted in `state.reads`); each write is
 * recorded and answered the way the API does (claim/assign/status → the whole request;
 * messages → the reply and what it changed; notes → {note}).
 */
function deskServer(initial: DeskRequestData) {
  const state = { request: initial, reads: 0 }
  const calls: Recorded[] = []
  /** Records the call; returns its JSON body. */
  const record = async <T = unknown>(request: Request): Promise<T> => {
    const text = await request.text()
    const body = text ? JSON.parse(text) : null
    calls.push({
      method: request.method,
      path: new URL(request.url).pathname,
      body,
      headers: request.headers,
    })
    return body as T
  }
  const base = '/api/v1/concierge/requests/:id'
  server.use(
    conciergesHandler(),
    http.get(apiUrl(base), () => {
      state.reads += 1
      return HttpResponse.json({ request: state.request })
    }),
    http.post(apiUrl(`${base}/claim`), async ({ request }) => {
      await record(request)
      state.request = { ...state.request, assignee: { id: ME.id, full_name: ME.full_name } }
      return HttpResponse.json({ request: state.request })
    }),
    http.post(apiUrl(`${base}/assign`), async ({ request }) => {
      const { assignee_id: id } = await record<{ assignee_id: number | null }>(request)
      const person = [ME, SAM].find((c) => c.id === id)
      state.request = {
        ...state.request,
        assignee: person ? { id: person.id, full_name: person.full_name } : null,
      }
      return HttpResponse.json({ request: state.request })
    }),
    http.post(apiUrl(`${base}/status`), async ({ request }) => {
      const { action } = await record<{ action: StatusAction }>(request)
      const next = NEXT_STATUS[action]
      state.request = { ...state.request, status: next }
      return HttpResponse.json({ request: state.request })
    }),
    http.post(apiUrl(`${base}/messages`), async ({ request }) => {
      const { message } = await record<{
        message: { body: string; attachment_keys?: string[] }
      }>(request)
      const reply = sentMessage(message.body, message.attachment_keys ?? [], {
        id: 900 + calls.length,
      })
      state.request = {
        ...state.request,
        status: state.request.status === 'open' ? 'in_progress' : state.request.status,
        assignee: state.request.assignee ?? { id: ME.id, full_name: ME.full_name },
        last_message_at: reply.external_created_at,
        waiting_on: 'employee',
        messages: [...state.request.messages, reply],
      }
      return HttpResponse.json(replyAnswer(state.request, reply), { status: 201 })
    }),
    http.post(apiUrl(`${base}/notes`), async ({ request }) => {
      const { body } = await record<{ body: string }>(request)
      const note = {
        id: 70 + calls.length,
        body,
        author: { id: ME.id, full_name: ME.full_name },
        created_at: new Date().toISOString(),
      }
      state.request = { ...state.request, notes: [...state.request.notes, note] }
      return HttpResponse.json({ note }, { status: 201 })
    }),
    http.post(apiUrl(`${base}/presence`), async ({ request }) => {
      await record(request)
      return HttpResponse.json({ viewers: state.request.viewers })
    }),
    http.delete(apiUrl(`${base}/presence`), async ({ request }) => {
      await record(request)
      return HttpResponse.json({ viewers: [] })
    }),
    // The queue is refetched after each write.
    http.get(apiUrl('/api/v1/concierge/requests'), () =>
      HttpResponse.json({ requests: [], counts: { open: 0, in_progress: 0, closed: 0 } }),
    ),
  )
  const writes = (suffix: string) => calls.filter((c) => c.path.endsWith(suffix))
  return { state, calls, writes }
}

function renderDesk(id = 101) {
  return renderWithProviders(<DeskRequest />, {
    route: `/concierge/requests/${id}`,
    path: '/concierge/requests/:requestId',
    user: makeConcierge(),
  })
}

async function heading(name: string) {
  return screen.findByRole('heading', { level: 1, name })
}

beforeEach(() => signInSession())
afterEach(() => vi.useRealTimers())

describe('issue 5 request view: what the concierge sees', () => {
  it('issue 5 request view: header with name, status, employee, company, age and assignee', async () => {
    deskServer(makeDeskRequest({ status: 'in_progress', issued_at: minutesAgo(90) }))
    renderDesk()
    const header = (await heading('Find a dog walker')).closest('header') as HTMLElement
    expect(header).toHaveTextContent('In Progress')
    expect(header).toHaveTextContent('#101')
    expect(header).toHaveTextContent('Jane Doe · Acme Corp')
    expect(header).toHaveTextContent('Requested 1 hour ago')
    expect(header).toHaveTextContent('Assignee: Unassigned')
    expect(header).toHaveTextContent('Needs reply')
    expect(within(header).getByRole('link', { name: 'Back to the queue' })).toHaveAttribute(
      'href',
      '/concierge',
    )
  })

  it('issue 5 request view: the thread oldest first, the details first, attachments in place', async () => {
    deskServer(
      makeDeskRequest({
        messages: [
          {
            id: 2,
            body_html: 'Second, from the concierge',
            source: 'life_concierge',
            source_name: 'Alex from Concierge',
            external_created_at: minutesAgo(20),
            reopened_request: false,
            by_email: false,
            attachment_keys: [],
            attachments: [],
          },
          {
            id: 1,
            body_html: 'First, from Jane',
            source: 'user',
            source_name: 'Jane Doe',
            external_created_at: minutesAgo(40),
            reopened_request: false,
            by_email: false,
            attachment_keys: ['uploads/101/rex.png'],
            attachments: [
              {
                key: 'uploads/101/rex.png',
                filename: 'rex.png',
                content_type: 'image/png',
                size: 2048,
              },
            ],
          },
        ],
      }),
    )
    renderDesk()
    expect(await screen.findByRole('article', { name: 'Request details' })).toHaveTextContent(
      'Walker for Rex',
    )
    const items = within(screen.getByRole('list', { name: 'Messages' }))
      .getAllByRole('listitem')
      .filter((li) => li.dataset.from)
    expect(items.map((li) => li.dataset.from)).toEqual(['employee', 'concierge'])
    expect(items[0]).toHaveTextContent('Jane Doe')
    expect(items[0]).toHaveTextContent('First, from Jane')
    expect(items[1]).toHaveTextContent('Alex from Concierge')
    // Issue 10: an image is a thumbnail that opens the image viewer in the thread.
    const thumbnail = within(items[0]).getByRole('button', { name: 'View image rex.png' })
    expect(thumbnail).toHaveAttribute('aria-haspopup', 'dialog')
  })

  it('issue 5 request view: the survey answers as question and answer pairs, an upload as a link', async () => {
    deskServer(makeDeskRequest())
    renderDesk()
    const survey = await screen.findByRole('region', { name: 'Survey answers' })
    expect(survey).toHaveTextContent('Pet care')
    const terms = within(survey)
      .getAllByRole('term')
      .map((t) => t.textContent)
    const values = within(survey)
      .getAllByRole('definition')
      .map((d) => d.textContent)
    expect(terms).toEqual(['What kind of pet?', 'Any allergies?', 'A photo of your pet'])
    expect(values).toEqual(['Dog', 'Question Skipped', 'rex photo.jpg'])
    expect(within(survey).getByRole('link', { name: 'rex photo.jpg' })).toHaveAttribute(
      'href',
      `/attachments/${encodeURIComponent('answers/50/rex photo.jpg')}`,
    )
  })

  it("issue 5 request view: the employee's profile with companies, contact details and onboarding answers", async () => {
    deskServer(makeDeskRequest())
    renderDesk()
    const profile = await screen.findByRole('region', { name: 'Employee' })
    expect(profile).toHaveTextContent('Acme Corp')
    expect(within(profile).getByRole('link', { name: /jane\.doe@example\.com/ })).toHaveAttribute(
      'href',
      'mailto:jane.doe@example.com',
    )
    expect(within(profile).getByRole('link', { name: /jane@home\.example/ })).toBeInTheDocument()
    // The phone reads as the employee wrote it in onboarding: (555) 123-4567.
    expect(within(profile).getByRole('link', { name: /\(555\) 123-4567/ })).toHaveAttribute(
      'href',
      'tel:5551234567',
    )
    expect(profile).toHaveTextContent('1 Main St')
    expect(profile).toHaveTextContent('3 requests')
    expect(profile).toHaveTextContent('PetsDog')
    expect(profile).toHaveTextContent('HomeRent')
  })

  it('issue 5 request view: a missing request says so', async () => {
    server.use(
      conciergesHandler(),
      http.get(apiUrl('/api/v1/concierge/requests/:id'), () =>
        HttpResponse.json({ success: false, error: 'Not found.' }, { status: 404 }),
      ),
    )
    renderDesk(999)
    expect(await heading('Request not found')).toBeInTheDocument()
  })
})

describe('issue 5 request view: internal notes', () => {
  it("issue 5 notes: the panel is labelled internal ('the employee never sees these') and lists the notes", async () => {
    deskServer(makeDeskRequest())
    renderDesk()
    const notes = await screen.findByRole('region', { name: 'Internal notes' })
    expect(notes).toHaveTextContent('Internal — the employee never sees these')
    expect(within(notes).getByRole('list', { name: 'Notes' })).toHaveTextContent('Prefers mornings')
    expect(notes).toHaveTextContent('Sam Lee')
    // Notes are kept apart from the thread the employee sees.
    expect(screen.getByRole('list', { name: 'Messages' })).not.toHaveTextContent('Prefers mornings')
  })

  it('issue 5 notes: adding a note posts {body} to /notes and shows it; an empty note is refused', async () => {
    const desk = deskServer(makeDeskRequest())
    const { user } = renderDesk()
    const notes = await screen.findByRole('region', { name: 'Internal notes' })
    await user.click(within(notes).getByRole('button', { name: 'Add note' }))
    expect(within(notes).getByText('Please write the note.')).toBeInTheDocument()
    expect(desk.writes('/notes')).toHaveLength(0)

    await user.type(within(notes).getByLabelText('Add an internal note'), 'Called the vet')
    await user.click(within(notes).getByRole('button', { name: 'Add note' }))
    await waitFor(() =>
      expect(within(notes).getByRole('list', { name: 'Notes' })).toHaveTextContent(
        'Called the vet',
      ),
    )
    expect(desk.writes('/notes').map((c) => c.body)).toEqual([{ body: 'Called the vet' }])
    expect(within(notes).getByLabelText('Add an internal note')).toHaveValue('')
    // WCAG 4.1.3: read out, as focus stays put and the box is merely empty again.
    expect(within(notes).getByRole('status')).toHaveTextContent('Note added.')
  })

  it('desk notes: an empty or refused note moves focus to the box, which reads its error out', async () => {
    deskServer(makeDeskRequest())
    const { user } = renderDesk()
    const notes = await screen.findByRole('region', { name: 'Internal notes' })
    const box = within(notes).getByLabelText('Add an internal note')
    await user.click(within(notes).getByRole('button', { name: 'Add note' }))
    expect(box).toHaveFocus()
    expect(box).toHaveAccessibleDescription('Please write the note.')

    server.use(
      http.post(apiUrl('/api/v1/concierge/requests/:id/notes'), () =>
        HttpResponse.json(
          { success: false, error: 'Please use at most 10,000 characters.' },
          { status: 422 },
        ),
      ),
    )
    await user.type(box, 'Called the vet')
    await user.click(within(notes).getByRole('button', { name: 'Add note' }))
    await waitFor(() =>
      expect(box).toHaveAccessibleDescription('Please use at most 10,000 characters.'),
    )
    expect(box).toHaveFocus()
    expect(box).toHaveValue('Called the vet')
  })

  it('issue 5 notes: a double click on Add note adds the note once', async () => {
    const desk = deskServer(makeDeskRequest())
    const { user } = renderDesk()
    const notes = await screen.findByRole('region', { name: 'Internal notes' })
    await user.type(within(notes).getByLabelText('Add an internal note'), 'Called the vet')
    const add = within(notes).getByRole('button', { name: 'Add note' })
    // Both clicks land before the pending state renders, as a quick double click can.
    fireEvent.click(add)
    fireEvent.click(add)
    await waitFor(() =>
      expect(within(notes).getByRole('list', { name: 'Notes' })).toHaveTextContent(
        'Called the vet',
      ),
    )
    expect(desk.writes('/notes')).toHaveLength(1)
  })
})

describe('issue 5 request view: claim, assign and status', () => {
  it('issue 5 claim: Claim posts to /claim and the header shows me as the assignee', async () => {
    const desk = deskServer(makeDeskRequest({ assignee: null }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Claim' }))
    await waitFor(() =>
      expect(
        screen.getByRole('heading', { level: 1 }).closest('header') as HTMLElement,
      ).toHaveTextContent('Assignee: Alex Rivera'),
    )
    expect(desk.writes('/claim')).toHaveLength(1)
    expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument()
    // The change is read out (where focus goes is checked in a browser: e2e test_accessibility).
    expect(screen.getByText(/^Assignee:/).closest('[aria-live="polite"]')).not.toBeNull()
  })

  it("issue 5 claim: someone else's request offers 'Take over', which assigns it to me", async () => {
    const desk = deskServer(makeDeskRequest({ assignee: { id: SAM.id, full_name: SAM.full_name } }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument()
    await user.click(await screen.findByRole('button', { name: 'Take over' }))
    await waitFor(() =>
      expect(desk.writes('/assign').map((c) => c.body)).toEqual([{ assignee_id: ME.id }]),
    )
  })

  it("issue 5 assign: the Assign menu lists every concierge and 'Unassigned'", async () => {
    const desk = deskServer(makeDeskRequest({ assignee: { id: ME.id, full_name: ME.full_name } }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Assign' }))
    const menu = await screen.findByRole('menu')
    await waitFor(() =>
      expect(
        within(menu)
          .getAllByRole('menuitem')
          .map((i) => i.textContent),
      ).toEqual(['Unassigned', 'Alex Rivera (me) (current)', 'Sam Lee']),
    )
    await user.click(within(menu).getByRole('menuitem', { name: 'Sam Lee' }))
    await waitFor(() =>
      expect(desk.writes('/assign').map((c) => c.body)).toEqual([{ assignee_id: SAM.id }]),
    )

    await user.click(screen.getByRole('button', { name: 'Assign' }))
    await user.click(await screen.findByRole('menuitem', { name: 'Unassigned' }))
    await waitFor(() =>
      expect(desk.writes('/assign').map((c) => c.body)).toEqual([
        { assignee_id: SAM.id },
        { assignee_id: null },
      ]),
    )
  })

  it('desk assign: when the concierges could not be loaded the menu says so and tries again, not just "Unassigned"', async () => {
    deskServer(makeDeskRequest({ assignee: null }))
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/concierges'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Server trouble' }, { status: 500 })
          : HttpResponse.json({ concierges: [ME, SAM] }),
      ),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Assign' }))
    const retry = await within(await screen.findByRole('menu')).findByRole('menuitem', {
      name: /couldn’t load the concierges/,
    })
    fail = false
    await user.click(retry)
    await user.click(screen.getByRole('button', { name: 'Assign' }))
    expect(
      await within(await screen.findByRole('menu')).findByRole('menuitem', { name: 'Sam Lee' }),
    ).toBeInTheDocument()
  })

  it('issue 5 status: In Queue offers Start and Complete; In Progress Complete; Completed Reopen', async () => {
    const desk = deskServer(makeDeskRequest({ status: 'open' }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    expect(screen.getByRole('button', { name: 'Start' })).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Reopen' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Start' }))
    await screen.findByText('In Progress')
    expect(screen.queryByRole('button', { name: 'Start' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Complete' }))
    await screen.findByText('Completed')
    expect(screen.queryByRole('button', { name: 'Complete' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Reopen' }))
    await screen.findByText('In Queue')
    expect(desk.writes('/status').map((c) => c.body)).toEqual([
      { action: 'start' },
      { action: 'complete' },
      { action: 'reopen' },
    ])
  })

  it("issue 5 status: a refused change shows the server's reason in a toast", async () => {
    deskServer(makeDeskRequest({ status: 'open' }))
    server.use(
      http.post(apiUrl('/api/v1/concierge/requests/:id/status'), () =>
        HttpResponse.json(
          { success: false, error: 'This request is already In Progress.' },
          { status: 422 },
        ),
      ),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Start' }))
    expect(await screen.findByText('This request is already In Progress.')).toBeInTheDocument()
    expect(screen.getByText('In Queue')).toBeInTheDocument()
  })
})

describe('issue 5 request view: the reply composer', () => {
  it('issue 5 reply: sends the text and one uploaded attachment with an Idempotency-Key, then clears', async () => {
    const desk = deskServer(makeDeskRequest({ messages: [] }))
    const presigned: unknown[] = []
    server.use(
      http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
        presigned.push(await request.json())
        return HttpResponse.json({
          presigned_url: `${STORAGE}/walkers.pdf`,
          key: 'uploads/101/walkers.pdf',
        })
      }),
      http.put(`${STORAGE}/walkers.pdf`, () => new HttpResponse(null, { status: 200 })),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    await user.upload(
      within(composer).getByLabelText('Attach a file'),
      new File(['%PDF-1.4'], 'walkers.pdf', { type: 'application/pdf' }),
    )
    expect(await within(composer).findByText('Uploaded')).toBeInTheDocument()
    expect(presigned).toEqual([{ upload: { filename: 'walkers.pdf', request_id: 101 } }])

    await user.type(within(composer).getByLabelText('Reply to Jane'), 'Here are three walkers')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))

    const thread = await screen.findByRole('list', { name: 'Messages' })
    await within(thread).findByText('Here are three walkers')
    expect(within(thread).getByRole('link', { name: /walkers\.pdf/ })).toBeInTheDocument()
    const [sent] = desk.writes('/messages')
    expect(sent.body).toEqual({
      message: { body: 'Here are three walkers', attachment_keys: ['uploads/101/walkers.pdf'] },
    })
    expect(sent.headers.get('Idempotency-Key')).toMatch(/\S{16,}/)
    expect(within(composer).getByLabelText('Reply to Jane')).toHaveValue('')
    expect(within(composer).getByText('Reply sent.')).toHaveAttribute('role', 'status')
    // The server moved it to In Progress; the header follows.
    expect(screen.getByText('In Progress')).toBeInTheDocument()
  })

  it('desk reply: without a first name the composer names the employee as the thread does, and its hint starts with a capital', async () => {
    const request = makeDeskRequest()
    deskServer({
      ...request,
      messages: [],
      employee: { ...request.employee, first_name: '', full_name: 'Doe' },
    })
    renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    expect(within(composer).getByLabelText('Reply to Doe')).toHaveAccessibleDescription(
      /^Doe sees this in the request/,
    )
    expect(screen.getByText(/starts the conversation with Doe/)).toBeInTheDocument()
  })

  it('desk reply: with no name at all the hint reads "The employee sees this…"', async () => {
    const request = makeDeskRequest()
    deskServer({ ...request, employee: { ...request.employee, first_name: '', full_name: '' } })
    renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    expect(within(composer).getByLabelText('Reply to the employee')).toHaveAccessibleDescription(
      /^The employee sees this in the request/,
    )
  })

  it('desk reply: a live refetch read before the reply went in does not take the reply (or the claim) off the screen', async () => {
    const desk = deskServer(makeDeskRequest({ assignee: null, messages: [] }))
    // The next reads of the request wait for `release`, answering the request as it was when
    // they were asked: a live update's refetch under way while the concierge sends.
    let release = () => {}
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const { user, queryClient } = renderDesk()
    await heading('Find a dog walker')
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests/:id'), async () => {
        const asked = desk.state.request
        await gate
        return HttpResponse.json({ request: asked })
      }),
    )
    void queryClient.invalidateQueries({ queryKey: deskKeys.detail(101) })

    await user.click(screen.getByRole('button', { name: 'Claim' }))
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    await user.type(within(composer).getByLabelText('Reply to Jane'), 'Booked for Thursday')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    const messages = await screen.findByRole('list', { name: 'Messages' })
    await waitFor(() => expect(messages).toHaveTextContent('Booked for Thursday'))

    release()
    await act(() => new Promise((resolve) => setTimeout(resolve, 50)))
    expect(screen.getByRole('list', { name: 'Messages' })).toHaveTextContent('Booked for Thursday')
    expect(screen.queryByRole('button', { name: 'Claim' })).not.toBeInTheDocument()
  })

  it('issue 5 reply: a retry after a failure reuses the Idempotency-Key; an empty reply is refused', async () => {
    const desk = deskServer(makeDeskRequest())
    let failures = 1
    const keys: (string | null)[] = []
    server.use(
      http.post(apiUrl('/api/v1/concierge/requests/:id/messages'), ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        if (failures-- > 0) {
          return HttpResponse.json({ success: false, error: 'Try again later' }, { status: 503 })
        }
        return HttpResponse.json(replyAnswer(desk.state.request, sentMessage('On it', [])), {
          status: 201,
        })
      }),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    expect(within(composer).getByText('Please write a reply')).toBeInTheDocument()
    expect(keys).toHaveLength(0)

    await user.type(within(composer).getByLabelText('Reply to Jane'), 'On it')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    expect(await within(composer).findByRole('alert')).toHaveTextContent('Try again later')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    await waitFor(() => expect(keys).toHaveLength(2))
    expect(keys[0]).toBeTruthy()
    expect(keys[1]).toBe(keys[0])
  })

  it('issue 30 reply: the answer is merged into the open request: the reply shows once even when the live update brought it first, and status and assignee follow', async () => {
    const desk = deskServer(makeDeskRequest({ status: 'open', assignee: null, messages: [] }))
    const { user, queryClient } = renderDesk()
    const header = (await heading('Find a dog walker')).closest('header') as HTMLElement
    expect(header).toHaveTextContent('Assignee: Unassigned')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    const reads = desk.state.reads

    await user.type(within(composer).getByLabelText('Reply to Jane'), 'Booked for Thursday')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    const thread = await screen.findByRole('list', { name: 'Messages' })
    await within(thread).findByText('Booked for Thursday')
    expect(header).toHaveTextContent('In Progress')
    expect(header).toHaveTextContent(`Assignee: ${ME.full_name}`)
    expect(header).not.toHaveTextContent('Needs reply')
    // The answer was merged into the cached request: the request was not read again.
    expect(desk.state.reads).toBe(reads)

    // The live update's refetch lands before the second reply's answer.
    server.use(
      http.post(apiUrl('/api/v1/concierge/requests/:id/messages'), async () => {
        const reply = sentMessage('And the walker is Sam', [], { id: 990 })
        desk.state.request = {
          ...desk.state.request,
          messages: [...desk.state.request.messages, reply],
        }
        await queryClient.refetchQueries({ queryKey: deskKeys.detail(101) })
        return HttpResponse.json(replyAnswer(desk.state.request, reply), { status: 201 })
      }),
    )
    await user.type(within(composer).getByLabelText('Reply to Jane'), 'And the walker is Sam')
    await user.click(within(composer).getByRole('button', { name: 'Send reply' }))
    await waitFor(() => expect(within(composer).getByLabelText('Reply to Jane')).toHaveValue(''))
    expect(within(thread).getAllByText('And the walker is Sam')).toHaveLength(1)
    const cached = queryClient.getQueryData<DeskRequestData>(deskKeys.detail(101))
    expect(cached?.messages.map((m) => m.body_html)).toEqual([
      'Booked for Thursday',
      'And the walker is Sam',
    ])
  })
})

describe('issue 5 request view: presence', () => {
  it("issue 5 presence: shows 'Also viewing' with the other concierges, and leaves on close", async () => {
    const desk = deskServer(
      makeDeskRequest({ viewers: [{ id: SAM.id, full_name: SAM.full_name }] }),
    )
    const { unmount } = renderDesk()
    await heading('Find a dog walker')
    expect(screen.getByRole('status', { name: 'Presence' })).toHaveTextContent(
      'Also viewing: Sam Lee',
    )
    unmount()
    await waitFor(() =>
      expect(desk.calls.filter((c) => c.path.endsWith('/presence')).map((c) => c.method)).toEqual([
        'DELETE',
      ]),
    )
  })

  it('issue 5 presence: a heartbeat every 15 s while open keeps the viewers current', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const desk = deskServer(makeDeskRequest({ viewers: [] }))
    renderDesk()
    await heading('Find a dog walker')
    expect(screen.getByRole('status', { name: 'Presence' })).toBeEmptyDOMElement()
    desk.state.request = {
      ...desk.state.request,
      viewers: [{ id: SAM.id, full_name: SAM.full_name }],
    }
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PRESENCE_HEARTBEAT_MS + 100)
    })
    await waitFor(() =>
      expect(screen.getByRole('status', { name: 'Presence' })).toHaveTextContent(
        'Also viewing: Sam Lee',
      ),
    )
    const heartbeats = desk.calls.filter((c) => c.path.endsWith('/presence') && c.method === 'POST')
    expect(heartbeats.length).toBeGreaterThanOrEqual(1)
  })
})

describe('Hardening 8: a long thread at the desk', () => {
  it('Hardening 8: shows the newest page; Load older messages fetches the page before it from the desk API', async () => {
    const message = (id: number, minutes: number) => ({
      ...sentMessage(`Message ${id}`, [], { id, source: 'user', source_name: 'Jane Doe' }),
      external_created_at: minutesAgo(minutes),
    })
    deskServer(makeDeskRequest({ older_cursor: '3', messages: [message(3, 30), message(4, 20)] }))
    const asked: string[] = []
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests/:id/messages'), ({ request, params }) => {
        asked.push(`${params.id}?${new URL(request.url).searchParams}`)
        return HttpResponse.json({ messages: [message(2, 40)], older_cursor: '2' })
      }),
    )
    const { user } = renderDesk()
    const list = await screen.findByRole('list', { name: 'Messages' })
    expect(within(list).getAllByRole('article')).toHaveLength(2)
    expect(screen.queryByRole('article', { name: 'Request details' })).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await within(list).findByText('Message 2')
    expect(asked).toEqual(['101?before=3'])
    expect(
      within(list)
        .getAllByRole('article')
        .map((a) => a.textContent),
    ).toEqual([
      expect.stringContaining('Message 2'),
      expect.stringContaining('Message 3'),
      expect.stringContaining('Message 4'),
    ])
    // Still older ones to come: the button stays, now for the page before message 2.
    expect(screen.getByRole('button', { name: 'Load older messages' })).toBeInTheDocument()
  })
})

describe('issue 12 saved replies and rating on the desk', () => {
  it('issue 12 saved replies: Ctrl + / opens them, typing filters, Enter inserts the filled-in text at the cursor', async () => {
    deskServer(makeDeskRequest())
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests/101/saved-replies'), () =>
        HttpResponse.json({
          saved_replies: [
            { id: 1, title: 'All done', text: 'Good news, Jane: all set.' },
            { id: 2, title: 'Got it, on it', text: 'Hi Jane! I am on it. Alex' },
          ],
        }),
      ),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    const reply = within(composer).getByLabelText('Reply to Jane') as HTMLTextAreaElement
    await user.type(reply, 'Intro. ')
    await user.keyboard('{Control>}/{/Control}')
    const filter = await within(composer).findByRole('combobox', { name: 'Filter saved replies' })
    expect(filter).toHaveFocus()
    expect(await within(composer).findAllByRole('option')).toHaveLength(2)
    await user.type(filter, 'on it')
    expect(within(composer).getAllByRole('option')).toHaveLength(1)
    await user.keyboard('{Enter}')
    await waitFor(() => expect(reply).toHaveValue('Intro. Hi Jane! I am on it. Alex'))
    expect(within(composer).queryByRole('combobox')).toBeNull()
    await waitFor(() => expect(reply).toHaveFocus())
  })

  it('issue 12 saved replies: Escape closes the list and puts the focus back in the reply', async () => {
    deskServer(makeDeskRequest())
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests/101/saved-replies'), () =>
        HttpResponse.json({ saved_replies: [] }),
      ),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    await user.click(within(composer).getByRole('button', { name: /Saved replies/ }))
    expect(await within(composer).findByText('No saved replies yet.')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await waitFor(() => expect(within(composer).getByLabelText('Reply to Jane')).toHaveFocus())
  })

  it('saved replies: a list that failed to load says so with Retry, not "No saved replies yet."', async () => {
    deskServer(makeDeskRequest())
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/concierge/requests/101/saved-replies'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'Server trouble' }, { status: 500 })
          : HttpResponse.json({
              saved_replies: [{ id: 1, title: 'All done', text: 'Good news, Jane: all set.' }],
            }),
      ),
    )
    const { user } = renderDesk()
    await heading('Find a dog walker')
    const composer = screen.getByRole('form', { name: 'Reply to the employee' })
    await user.click(within(composer).getByRole('button', { name: /Saved replies/ }))
    expect(await within(composer).findByRole('alert')).toHaveTextContent('Server trouble')
    expect(within(composer).queryByText('No saved replies yet.')).toBeNull()

    fail = false
    await user.click(within(composer).getByRole('button', { name: 'Retry' }))
    expect(await within(composer).findByRole('option', { name: /All done/ })).toBeInTheDocument()
    expect(within(composer).queryByRole('alert')).toBeNull()
    expect(within(composer).getByRole('combobox', { name: 'Filter saved replies' })).toHaveFocus()
  })

  it('issue 12 CSAT: the desk shows the employee rating on the request', async () => {
    deskServer(
      makeDeskRequest({
        status: 'closed',
        rating: { score: 4, comment: 'Quick!', via: 'email', created_at: minutesAgo(5) },
      }),
    )
    renderDesk()
    await heading('Find a dog walker')
    const panel = screen.getByRole('region', { name: 'Employee rating' })
    expect(panel).toHaveTextContent('4 out of 5 (Good) · from the completion email')
    expect(panel).toHaveTextContent('Quick!')
  })
})

describe('issue 29 desk: the browser tab names the request', () => {
  it('issue 29 desk: "#id name · employee first name", the full name when the first is blank', () => {
    const request = makeDeskRequest({ id: 2, name: 'Get a handyman' })
    expect(
      deskRequestTitle({ ...request, employee: { ...request.employee, first_name: 'Nora' } }),
    ).toBe('#2 Get a handyman · Nora')
    expect(
      deskRequestTitle({
        ...request,
        employee: { ...request.employee, first_name: '', full_name: 'N. Quist' },
      }),
    ).toBe('#2 Get a handyman · N. Quist')
  })
})

describe('issue 29 desk: new messages while the concierge reads', () => {
  const employeeMessage = (id: number, body: string) =>
    sentMessage(body, [], { id, source: 'user', source_name: 'Jane Doe' })

  it('issue 29 desk: a new message from the employee is announced, once, by a polite live region', async () => {
    const desk = deskServer(makeDeskRequest({ messages: [employeeMessage(1, 'Hello there')] }))
    const { queryClient } = renderDesk()
    await screen.findByText('Hello there')
    const announcer = document.querySelector('[data-thread-announcer]')
    expect(announcer).toHaveAttribute('aria-live', 'polite')
    expect(announcer).toHaveTextContent('')

    desk.state.request = {
      ...desk.state.request,
      messages: [...desk.state.request.messages, employeeMessage(2, 'Any news on the plumber?')],
    }
    await act(() => queryClient.invalidateQueries())
    await screen.findByText('Any news on the plumber?')
    expect(announcer).toHaveTextContent('New message from Jane Doe: Any news on the plumber?')
  })

  it('issue 29 desk: a concierge scrolled up to read sees a New message pill, which brings it into view and moves to the reply', async () => {
    const desk = deskServer(makeDeskRequest({ messages: [employeeMessage(1, 'Hello there')] }))
    // The thread's end is far below the screen: the concierge is reading further up.
    const below = vi
      .spyOn(HTMLElement.prototype, 'getBoundingClientRect')
      .mockReturnValue(new DOMRect(0, 5000, 100, 10))
    const { queryClient, user } = renderDesk()
    await screen.findByText('Hello there')
    expect(screen.queryByRole('button', { name: 'New message' })).not.toBeInTheDocument()

    desk.state.request = {
      ...desk.state.request,
      messages: [...desk.state.request.messages, employeeMessage(2, 'Any news on the plumber?')],
    }
    await act(() => queryClient.invalidateQueries())
    const pill = await screen.findByRole('button', { name: 'New message' })
    below.mockRestore()
    await user.click(pill)
    expect(screen.queryByRole('button', { name: 'New message' })).not.toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /reply/i })).toHaveFocus()
  })
})

describe('issue 29 desk: Complete can be undone for a few seconds', () => {
  function toasts() {
    return within(screen.getByRole('region', { name: 'Notifications' }))
  }

  it('issue 29 desk: Complete shows "Request completed." with Undo, focused; Undo puts it back In Progress, focus on Complete', async () => {
    const desk = deskServer(makeDeskRequest({ status: 'in_progress' }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Complete' }))
    expect(await toasts().findByText('Request completed.')).toBeInTheDocument()
    const undo = toasts().getByRole('button', { name: 'Undo' })
    await waitFor(() => expect(undo).toHaveFocus())
    expect(screen.getByRole('button', { name: 'Reopen' })).toBeInTheDocument()

    await user.keyboard('{Enter}')
    expect(
      await toasts().findByText('Completion undone: the request is In Progress again.'),
    ).toBeInTheDocument()
    expect(toasts().queryByText('Request completed.')).not.toBeInTheDocument()
    const complete = await screen.findByRole('button', { name: 'Complete' })
    await waitFor(() => expect(complete).toHaveFocus())
    expect(desk.writes('/status').map((c) => c.body)).toEqual([
      { action: 'complete' },
      { action: 'undo_complete' },
    ])
  })

  it('issue 29 desk: the Undo toast goes after 6 s and focus comes back to Reopen; a late Undo shows why', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const desk = deskServer(makeDeskRequest({ status: 'in_progress' }))
    const { user } = renderDesk()
    await heading('Find a dog walker')
    await user.click(screen.getByRole('button', { name: 'Complete' }))
    const undo = await toasts().findByRole('button', { name: 'Undo' })
    await waitFor(() => expect(undo).toHaveFocus())
    act(() => {
      vi.advanceTimersByTime(UNDO_COMPLETE_MS)
    })
    expect(toasts().queryByText('Request completed.')).not.toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Reopen' })).toHaveFocus()
    expect(desk.writes('/status').map((c) => c.body)).toEqual([{ action: 'complete' }])

    // Completed again, and Undo pressed once the server no longer takes it.
    desk.state.request = { ...desk.state.request, status: 'in_progress' }
    server.use(
      http.post(apiUrl('/api/v1/concierge/requests/:id/status'), async ({ request }) => {
        const { action } = (await request.json()) as { action: StatusAction }
        if (action === 'undo_complete')
          return HttpResponse.json(
            { success: false, error: "It's too late to undo this completion." },
            { status: 422 },
          )
        desk.state.request = {
          ...desk.state.request,
          status: action === 'complete' ? 'closed' : 'open',
        }
        return HttpResponse.json({ request: desk.state.request })
      }),
    )
    await user.click(screen.getByRole('button', { name: 'Reopen' }))
    await user.click(await screen.findByRole('button', { name: 'Complete' }))
    await user.click(await toasts().findByRole('button', { name: 'Undo' }))
    expect(await toasts().findByText("It's too late to undo this completion.")).toBeInTheDocument()
    expect(screen.getByText('Completed')).toBeInTheDocument()
  })
})
