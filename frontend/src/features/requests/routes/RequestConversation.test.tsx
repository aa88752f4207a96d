import { onlineManager } from '@tanstack/react-query'
import { act, createEvent, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RequestItem } from '@/features/conversation'
import { requestKeys } from '@/features/conversation'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { detailHandler, makeMessage, makeRequest, sentMessage } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import Request from './Request'

const STORAGE = 'https://storage.example.test/bucket'

interface Sent {
  message: { body: string; attachment_keys?: string[] }
  reopen: boolean
}

beforeEach(() => {
  signInSession()
  URL.createObjectURL = vi.fn(() => 'blob:preview')
  URL.revokeObjectURL = vi.fn()
})
afterEach(() => vi.restoreAllMocks())

function renderRequest(id: number) {
  return renderWithProviders(<Request />, {
    route: `/requests/${id}`,
    path: '/requests/:requestId',
    user: makeUser(),
  })
}

/** Presign and storage PUT for any file name: the key is uploads/{id}/{name}. */
function uploadHandlers(id: number) {
  return [
    http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
      const { upload } = (await request.json()) as { upload: { filename: string } }
      return HttpResponse.json({
        presigned_url: `${STORAGE}/${upload.filename}`,
        key: `uploads/${id}/${upload.filename}`,
      })
    }),
    http.put(`${STORAGE}/:name`, () => new HttpResponse(null, { status: 200 })),
  ]
}

function messageHandler(state: { request: RequestItem }, sent: Sent[]) {
  return http.post(apiUrl('/api/v1/requests/:id/messages'), async ({ request }) => {
    const body = (await request.json()) as Sent
    sent.push(body)
    if (state.request.status === 'closed' && !body.reopen) {
      return HttpResponse.json(
        { success: false, error: 'This request is completed.' },
        { status: 409 },
      )
    }
    state.request = {
      ...state.request,
      status: state.request.status === 'closed' ? 'open' : state.request.status,
      messages: [
        ...state.request.messages,
        sentMessage(body.message.body, body.message.attachment_keys ?? [], {
          id: 900 + sent.length,
          source: 'user',
          source_name: 'Jane Doe',
          reopened_request: state.request.status === 'closed',
        }),
      ],
    }
    return HttpResponse.json({ request: state.request }, { status: 201 })
  })
}

const png = (name: string) => new File(['png-bytes'], name, { type: 'image/png' })

function dropOn(target: Element, files: File[]) {
  const dataTransfer = { files, types: ['Files'] }
  fireEvent.dragOver(target, { dataTransfer })
  fireEvent.drop(target, { dataTransfer })
}

describe('Composer (issue 10): a preview before sending; drop and paste attach a file', () => {
  it('a chosen image shows its thumbnail, name and size, and can be removed', async () => {
    const state = { request: makeRequest({ id: 31 }) }
    server.use(
      detailHandler(() => state.request),
      ...uploadHandlers(31),
    )
    const { user } = renderRequest(31)
    const input = (await screen.findByLabelText('Attach a file')) as HTMLInputElement
    await user.upload(input, png('gate.png'))
    const selected = screen.getByRole('list', { name: 'Selected file' })
    expect(within(selected).getByText('gate.png')).toBeInTheDocument()
    expect(within(selected).getByText('9 Bytes')).toBeInTheDocument()
    expect(selected.querySelector('img[data-preview]')).toHaveAttribute('src', 'blob:preview')
    expect(await within(selected).findByText('Uploaded')).toBeInTheDocument()
    await user.click(within(selected).getByRole('button', { name: 'Remove gate.png' }))
    expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument()
  })

  it('a file dropped on the composer is attached; two at once are refused (spec §5)', async () => {
    const state = { request: makeRequest({ id: 32 }) }
    const sent: Sent[] = []
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
      ...uploadHandlers(32),
    )
    const { user } = renderRequest(32)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    dropOn(form, [png('a.png'), png('b.png')])
    expect(
      within(form).getByText('Only one file can be attached to a message.'),
    ).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument()

    dropOn(form, [new File(['%PDF-1.4'], 'lease.pdf', { type: 'application/pdf' })])
    const selected = screen.getByRole('list', { name: 'Selected file' })
    expect(within(selected).getByText('lease.pdf')).toBeInTheDocument()
    expect(selected.querySelector('img[data-preview]')).toBeNull()
    expect(await within(selected).findByText('Uploaded')).toBeInTheDocument()
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'The lease')
    await user.click(within(form).getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].message.attachment_keys).toEqual(['uploads/32/lease.pdf'])
    // Focus stays in the composer after Send.
    await waitFor(() =>
      expect(within(form).getByRole('textbox', { name: 'Message' })).toHaveFocus(),
    )
  })

  it('an image pasted into the text is attached; pasted text stays text', async () => {
    const state = { request: makeRequest({ id: 33 }) }
    server.use(
      detailHandler(() => state.request),
      ...uploadHandlers(33),
    )
    renderRequest(33)
    const box = await screen.findByRole('textbox', { name: 'Message' })
    const paste = createEvent.paste(box, { clipboardData: { files: [png('screenshot.png')] } })
    fireEvent(box, paste)
    expect(paste.defaultPrevented).toBe(true)
    const selected = screen.getByRole('list', { name: 'Selected file' })
    expect(within(selected).getByText('screenshot.png')).toBeInTheDocument()
    expect(selected.querySelector('img[data-preview]')).toBeInTheDocument()

    const text = createEvent.paste(box, { clipboardData: { files: [] } })
    fireEvent(box, text)
    expect(text.defaultPrevented).toBe(false)
  })
})

describe('§7 request thread on a phone: the composer stays one line until it is used', () => {
  it('folded: the text, attach and send on one line, each named for screen readers; focus opens it', async () => {
    const state = { request: makeRequest({ id: 36 }) }
    server.use(detailHandler(() => state.request))
    const { user } = renderRequest(36)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    const text = within(form).getByRole('textbox', { name: 'Message' })
    expect(form).not.toHaveAttribute('data-open')
    expect(form).toHaveClass('flex-row')
    expect(text).toHaveAttribute('rows', '1')
    // Visually icons only; their names stay.
    expect(within(form).getByText('Message')).toHaveClass('sr-only')
    expect(within(form).getByText('Attach a file')).toHaveClass('sr-only')
    expect(within(form).getByText('Send')).toHaveClass('sr-only')
    expect(within(form).getByLabelText('Attach a file')).toHaveAttribute('type', 'file')
    expect(within(form).getByRole('button', { name: 'Send' })).toHaveAttribute('type', 'submit')

    await user.click(text)
    expect(form).toHaveAttribute('data-open')
    expect(form).toHaveClass('flex-col')
    expect(text).toHaveAttribute('rows', '2')
    expect(text).toHaveFocus()
    expect(within(form).getByText('Message')).not.toHaveClass('sr-only')
    expect(within(form).getByText('Send')).not.toHaveClass('sr-only')

    // Typed text keeps it open when focus leaves; emptied and left, it folds again.
    await user.type(text, 'Hello')
    await user.tab({ shift: true })
    expect(text).not.toHaveFocus()
    expect(form).toHaveAttribute('data-open')
    await user.clear(text)
    await user.click(document.body)
    expect(form).not.toHaveAttribute('data-open')
  })

  it('Send with nothing typed opens it to show why', async () => {
    const state = { request: makeRequest({ id: 37 }) }
    server.use(detailHandler(() => state.request))
    const { user } = renderRequest(37)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    await user.click(within(form).getByRole('button', { name: 'Send' }))
    expect(await within(form).findByText('Please enter a message')).toBeInTheDocument()
    expect(form).toHaveAttribute('data-open')
  })

  it('offline: the message waits, says it will be sent once back online, and then goes once', async () => {
    const state = { request: makeRequest({ id: 36 }) }
    const sent: Sent[] = []
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(36)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Still there?')
    act(() => onlineManager.setOnline(false))
    try {
      // Before anything is sent, it already says so.
      expect(
        await within(form).findByText(
          'You’re offline. What you send will go when you’re back online.',
        ),
      ).toHaveAttribute('role', 'status')
      await user.click(within(form).getByRole('button', { name: 'Send' }))
      expect(
        await within(form).findByText('You’re offline. It will be sent when you’re back online.'),
      ).toHaveAttribute('role', 'status')
      expect(sent).toHaveLength(0)
    } finally {
      act(() => onlineManager.setOnline(true))
    }
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].message.body).toBe('Still there?')
    await waitFor(() => expect(within(form).queryByText(/You’re offline/)).toBeNull())
    // The send that went through is read out (the box is empty again).
    expect(within(form).getByText('Message sent.')).toHaveAttribute('role', 'status')
  })

  it('§2 Request offline: with nothing written it opens, so the notice has its own line and the text keeps its width', async () => {
    const state = { request: makeRequest({ id: 35 }) }
    server.use(detailHandler(() => state.request))
    renderRequest(35)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    expect(form).not.toHaveAttribute('data-open')
    act(() => onlineManager.setOnline(false))
    try {
      // Folded, the notice sat in the one line beside the text and squeezed it to nothing.
      await within(form).findByText(
        'You’re offline. What you send will go when you’re back online.',
      )
      expect(form).toHaveAttribute('data-open')
      expect(form).toHaveClass('flex-col')
    } finally {
      act(() => onlineManager.setOnline(true))
    }
    await waitFor(() => expect(form).not.toHaveAttribute('data-open'))
  })

  it('a chosen file opens it, with the file shown before sending', async () => {
    const state = { request: makeRequest({ id: 38 }) }
    server.use(
      detailHandler(() => state.request),
      ...uploadHandlers(38),
    )
    const { user } = renderRequest(38)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    expect(form).not.toHaveAttribute('data-open')
    await user.upload(within(form).getByLabelText('Attach a file'), png('gate.png'))
    expect(form).toHaveAttribute('data-open')
    expect(within(form).getByRole('list', { name: 'Selected file' })).toBeInTheDocument()
  })

  it('on a Completed request the folded line still names what sending does; opened, it says so', async () => {
    const state = { request: makeRequest({ id: 39, status: 'closed' }) }
    server.use(
      detailHandler(() => state.request),
      http.get(apiUrl('/api/v1/requests/39/rating'), () =>
        HttpResponse.json({ can_rate: false, rating: null }),
      ),
    )
    const { user } = renderRequest(39)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    expect(form).not.toHaveAttribute('data-open')
    expect(within(form).getByText(/This request is completed/)).toHaveClass('sr-only')
    expect(within(form).getByRole('button', { name: 'Reopen and send' })).toBeInTheDocument()
    expect(within(form).queryByRole('button', { name: 'Start a new request' })).toBeNull()
    await user.click(within(form).getByRole('textbox', { name: 'Message' }))
    expect(within(form).getByText(/This request is completed/)).not.toHaveClass('sr-only')
  })
})

describe('A Completed request (issue 10): nothing reopens it silently', () => {
  it("says so and offers 'Reopen and send', which sends the reopen flag", async () => {
    const state = { request: makeRequest({ id: 34, status: 'closed' }) }
    const sent: Sent[] = []
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(34)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    expect(form).toHaveTextContent('This request is completed. Sending a message will reopen it.')
    expect(within(form).queryByRole('button', { name: 'Send' })).not.toBeInTheDocument()
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'One more thing')
    await user.click(within(form).getByRole('button', { name: 'Reopen and send' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].reopen).toBe(true)
    expect(await screen.findByText('You reopened this request')).toBeInTheDocument()
    expect(await within(form).findByRole('button', { name: 'Send' })).toBeInTheDocument()
    expect(screen.getByText('In Queue')).toBeInTheDocument()
  })

  it('completed while writing: the 409 is shown and the composer switches to reopen', async () => {
    const state = { request: makeRequest({ id: 35, status: 'in_progress' }) }
    const sent: Sent[] = []
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(35)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    state.request = { ...state.request, status: 'closed' }
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Hello')
    await user.click(within(form).getByRole('button', { name: 'Send' }))
    expect(await within(form).findByRole('alert')).toHaveTextContent('This request is completed.')
    expect(await within(form).findByRole('button', { name: 'Reopen and send' })).toBeInTheDocument()
    expect(within(form).getByRole('textbox', { name: 'Message' })).toHaveValue('Hello')
  })
})

describe('Following the thread (issue 10)', () => {
  it('a live reply is announced politely; scrolled up, a New message pill waits', async () => {
    const scrollIntoView = vi.fn()
    Element.prototype.scrollIntoView = scrollIntoView
    const state = {
      request: makeRequest({
        id: 36,
        messages: [makeMessage({ id: 1, body_html: 'Hello', source_name: 'Alex from Concierge' })],
      }),
    }
    server.use(detailHandler(() => state.request))
    const { queryClient, user } = renderRequest(36)
    await screen.findByText('Hello')
    const announcer = document.querySelector('[data-thread-announcer]') as HTMLElement
    expect(announcer).toHaveAttribute('aria-live', 'polite')
    expect(announcer).toHaveTextContent('')
    expect(scrollIntoView).toHaveBeenCalled() // opens at the newest message
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)))

    // Scrolled up: the end of the thread is far below the screen.
    const rect = vi
      .spyOn(Element.prototype, 'getBoundingClientRect')
      .mockReturnValue({ top: 5000, bottom: 5010 } as DOMRect)
    fireEvent.scroll(window)
    scrollIntoView.mockClear()
    state.request = {
      ...state.request,
      messages: [
        ...state.request.messages,
        makeMessage({
          id: 2,
          body_html: 'Found a walker: <a href="https://x.test">Sam</a><br>Weekdays',
          source_name: 'Alex from Concierge',
        }),
      ],
    }
    await act(() => queryClient.invalidateQueries({ queryKey: requestKeys.detail(36) }))
    const pill = await screen.findByRole('button', { name: 'New message' })
    expect(announcer).toHaveTextContent(
      'New message from Alex from Concierge: Found a walker: Sam Weekdays',
    )
    expect(scrollIntoView).not.toHaveBeenCalled()
    rect.mockRestore()
    await user.click(pill)
    expect(scrollIntoView).toHaveBeenCalled()
    expect(screen.queryByRole('button', { name: 'New message' })).not.toBeInTheDocument()
  })

  it('a keyboard opening while the own new message scrolls into view keeps the end in view', async () => {
    const scrollIntoView = vi.fn()
    Element.prototype.scrollIntoView = scrollIntoView
    const state = { request: makeRequest({ id: 37, messages: [makeMessage({ id: 1 })] }) }
    const sent: Sent[] = []
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(37)
    const form = await screen.findByRole('form', { name: 'Send a message' })
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)))
    await user.type(within(form).getByRole('textbox', { name: 'Message' }), 'Great, thanks!')
    await user.click(within(form).getByRole('button', { name: 'Send' }))
    await screen.findByText('Great, thanks!', { selector: 'article *' })
    expect(scrollIntoView).toHaveBeenLastCalledWith({ block: 'end', behavior: 'smooth' })

    // The smooth scroll's first step is still far from the end; then the screen gets shorter.
    const rect = vi
      .spyOn(Element.prototype, 'getBoundingClientRect')
      .mockReturnValue({ top: 5000, bottom: 5010 } as DOMRect)
    fireEvent.scroll(window)
    scrollIntoView.mockClear()
    fireEvent(window, new Event('resize'))
    await act(() => new Promise((resolve) => requestAnimationFrame(resolve)))
    expect(scrollIntoView).toHaveBeenCalledWith({ block: 'end', behavior: 'auto' })
    rect.mockRestore()
  })
})
