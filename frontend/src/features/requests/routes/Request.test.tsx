import { onlineManager } from '@tanstack/react-query'
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { RequestItem } from '@/features/conversation'
import { formatWhen } from '@/lib/format'
import { createGate } from '@/test/gate'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import {
  detailHandler,
  makeMessage,
  makeRequest,
  minutesAgo,
  sentMessage,
} from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import Request from './Request'

const STORAGE = 'https://storage.example.test/bucket'

beforeEach(() => signInSession())
afterEach(() => vi.useRealTimers())

function renderRequest(id: number | string) {
  return renderWithProviders(<Request />, {
    route: `/requests/${id}`,
    path: '/requests/:requestId',
    user: makeUser(),
  })
}

function pdf(name = 'lease.pdf', body = '%PDF-1.4 hello') {
  return new File([body], name, { type: 'application/pdf' })
}

function fileInput() {
  return screen.getByLabelText('Attach a file') as HTMLInputElement
}

interface SentMessage {
  body: {
    message: { body: string; source: string; source_name: string; attachment_keys?: string[] }
    reopen?: boolean
  }
  idempotencyKey: string | null
}

/** POST messages: records each call; appends the message to `state.request` and answers 201. */
function messageHandler(state: { request: RequestItem }, sent: SentMessage[]) {
  return http.post(apiUrl('/api/v1/requests/:id/messages'), async ({ request }) => {
    const body = (await request.json()) as SentMessage['body']
    sent.push({ body, idempotencyKey: request.headers.get('Idempotency-Key') })
    const keys = body.message.attachment_keys ?? []
    state.request = {
      ...state.request,
      messages: [
        ...state.request.messages,
        sentMessage(body.message.body, keys, {
          id: 900 + sent.length,
          source: 'user',
          source_name: 'Jane Doe',
        }),
      ],
    }
    return HttpResponse.json({ request: state.request }, { status: 201 })
  })
}

describe('Request: header and thread', () => {
  it('§2 Request: header with name, status label, relative requested time and a back link', async () => {
    const request = makeRequest({
      id: 7,
      name: 'Find a dog walker',
      status: 'in_progress',
      issued_at: minutesAgo(5),
    })
    server.use(detailHandler(() => request))
    renderRequest(7)
    expect(screen.getByRole('status', { name: 'Loading request' })).toBeInTheDocument()
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Find a dog walker' }),
    ).toBeInTheDocument()
    expect(screen.getByText('In Progress')).toBeInTheDocument()
    expect(screen.getByText('Requested 5 minutes ago')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Back to requests' })).toHaveAttribute(
      'href',
      '/requests',
    )
  })

  it('§4 Request thread: sorted ascending with the synthetic first message repeating the details', async () => {
    const request = makeRequest({
      id: 8,
      details: 'Walker for Rex\nWeekdays at noon',
      issued_at: minutesAgo(60),
      messages: [
        makeMessage({
          id: 3,
          body_html: 'Third',
          source: 'user',
          source_name: 'Jane Doe',
          external_created_at: minutesAgo(10),
        }),
        makeMessage({
          id: 1,
          body_html: 'First <a href="https://example.com" target="_blank">link</a><br>\nline two',
          source_name: 'Alex from Concierge',
          external_created_at: minutesAgo(50),
        }),
        makeMessage({
          id: 2,
          body_html: 'Second',
          source_name: 'Alex from Concierge',
          external_created_at: minutesAgo(30),
          attachment_keys: ['uploads/8/quote final.pdf'],
          attachments: [
            {
              key: 'uploads/8/quote final.pdf',
              filename: 'quote final.pdf',
              content_type: 'application/pdf',
              size: 1536,
            },
          ],
        }),
      ],
    })
    server.use(detailHandler(() => request))
    renderRequest(8)
    const list = await screen.findByRole('list', { name: 'Messages' })
    const items = within(list)
      .getAllByRole('listitem')
      .filter((li) => li.parentElement === list)
    expect(items).toHaveLength(4)
    expect(items[0]).toHaveTextContent(
      "We've received your request and a concierge will be in touch soon. Here's what you told us:",
    )
    expect(items[0]).toHaveTextContent('Walker for Rex')
    expect(items[0]).toHaveAttribute('data-from', 'concierge')
    expect(items[0]).toHaveTextContent('1 hour ago')
    expect(items[1]).toHaveTextContent('First')
    expect(items[1]).toHaveTextContent('Alex from Concierge')
    expect(items[1]).toHaveTextContent('50 minutes ago')
    // Issue 29 time: the timestamp's tooltip is the one English point in time ('Today 3:05 PM').
    const sent = within(items[1]).getByText('50 minutes ago')
    expect(sent).toHaveAttribute(
      'title',
      formatWhen(sent.getAttribute('datetime') ?? '', { capitalize: true }),
    )
    expect(sent.getAttribute('title')).toMatch(/^(Today|Yesterday) \d{1,2}:\d{2} [AP]M$/)
    expect(within(items[1]).getByRole('link', { name: 'link' })).toHaveAttribute(
      'href',
      'https://example.com',
    )
    expect(items[2]).toHaveTextContent('Second')
    expect(items[3]).toHaveTextContent('Third')
    expect(items[3]).toHaveAttribute('data-from', 'user')
    expect(items[3]).toHaveClass('justify-end')
    expect(items[1]).toHaveClass('justify-start')
    expect(within(items[3]).getByRole('article', { name: 'Message from You' })).toBeInTheDocument()

    const attachment = within(items[2]).getByRole('link', { name: /quote final\.pdf/ })
    // Issue 10: a PDF opens in the browser's viewer in a new tab, not a download page.
    expect(attachment).toHaveAttribute(
      'href',
      '/attachments/uploads%2F8%2Fquote%20final.pdf?view=inline',
    )
    expect(attachment).toHaveAttribute('target', '_blank')
    expect(attachment).toHaveTextContent('1.5 KB')
    expect(screen.queryByText('No messages yet')).not.toBeInTheDocument()
  })

  it("§2 Request: 'No messages yet' when there are no details and no messages", async () => {
    const request = makeRequest({ id: 9, details: '' })
    server.use(detailHandler(() => request))
    renderRequest(9)
    expect(await screen.findByText('No messages yet')).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Messages' })).not.toBeInTheDocument()
  })

  it('§8 Request: a missing request shows a friendly state with a link back', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const request = makeRequest({ id: 10 })
    server.use(detailHandler(() => request))
    renderRequest(404)
    expect(
      await screen.findByRole('heading', { name: 'We couldn’t find that request' }),
    ).toBeInTheDocument()
    expect(screen.getAllByRole('link', { name: 'Back to requests' })[0]).toHaveAttribute(
      'href',
      '/requests',
    )
    expect(console.error).toHaveBeenCalledWith('Failed to fetch request', expect.anything())
  })

  it('§2 Request offline: opened without a connection, it says so instead of loading forever, then loads', async () => {
    const request = makeRequest({ id: 12, name: 'Book a plumber' })
    server.use(detailHandler(() => request))
    act(() => onlineManager.setOnline(false))
    try {
      renderRequest(12)
      expect(await screen.findByRole('heading', { name: 'You’re offline' })).toBeInTheDocument()
      expect(
        screen.getByText('This request will load when you’re back online.'),
      ).toBeInTheDocument()
      expect(screen.queryByRole('status', { name: 'Loading request' })).toBeNull()
    } finally {
      act(() => onlineManager.setOnline(true))
    }
    expect(await screen.findByRole('heading', { name: 'Book a plumber' })).toBeInTheDocument()
  })

  it('§2 Request: a non-numeric id is not found without a call', () => {
    renderRequest('abc')
    expect(
      screen.getByRole('heading', { name: 'We couldn’t find that request' }),
    ).toBeInTheDocument()
  })

  it('§2 Request: the request is refetched every 15 s while the page is shown', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const calls = { count: 0 }
    let request = makeRequest({ id: 11, details: '' })
    server.use(detailHandler(() => request, calls))
    renderRequest(11)
    expect(await screen.findByText('No messages yet')).toBeInTheDocument()
    expect(calls.count).toBe(1)
    request = { ...request, messages: [makeMessage({ body_html: 'A concierge reply' })] }
    await act(async () => {
      await vi.advanceTimersByTimeAsync(15_000)
    })
    await waitFor(() => expect(calls.count).toBe(2))
    expect(await screen.findByText('A concierge reply')).toBeInTheDocument()
  })
})

describe('Request: the request summary (issue: the guided survey)', () => {
  function summaryHandler(requestId: number, lines: unknown[], calls: number[] = []) {
    return http.get(apiUrl(`/api/v1/requests/${requestId}/summary`), () => {
      calls.push(requestId)
      return HttpResponse.json({ success: true, lines })
    })
  }

  it("§7 request thread: the survey's photo answer is a thumbnail in the first message that opens the image viewer", async () => {
    const request = makeRequest({
      id: 21,
      details: 'How big is your dog? Large\nA photo of your dog: rex.png',
      messages: [],
    })
    server.use(
      detailHandler(() => request),
      summaryHandler(21, [
        { label: 'How big is your dog?', answer: 'Large', file: null },
        {
          label: 'A photo of your dog:',
          answer: 'rex.png',
          file: {
            key: 'uploads/5/rex.png',
            filename: 'rex.png',
            content_type: 'image/png',
            size: 99,
          },
        },
      ]),
    )
    const { user } = renderRequest(21)
    const link = await screen.findByRole('button', { name: 'View image rex.png' })
    const first = screen.getAllByRole('article')[0]
    expect(first).toContainElement(link)
    expect(first).toHaveTextContent('How big is your dog? Large')
    expect(
      within(link.parentElement as HTMLElement).getByText('A photo of your dog:'),
    ).toBeVisible()
    expect(screen.queryByRole('button', { name: /\(view image\)/ })).toBeNull()
    // Like the messages' images: the inline address, asked for once it comes near the screen.
    const thumbnail = await waitFor(() => {
      const img = link.querySelector('img[data-thumbnail]')
      expect(img).not.toBeNull()
      return img as HTMLImageElement
    })
    expect(thumbnail).toHaveAttribute(
      'src',
      `https://files.example.com/inline/${encodeURIComponent('uploads/5/rex.png')}`,
    )
    await user.click(link)
    const viewer = await screen.findByRole('dialog', { name: /rex\.png/ })
    const image = await within(viewer).findByRole('img')
    expect(image).toHaveAttribute(
      'src',
      `https://files.example.com/inline/${encodeURIComponent('uploads/5/rex.png')}`,
    )
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(link).toHaveFocus())
  })

  it('an uploaded PDF in the summary opens in the browser viewer in a new tab', async () => {
    const request = makeRequest({ id: 22, details: 'Your lease: lease.pdf', messages: [] })
    server.use(
      detailHandler(() => request),
      summaryHandler(22, [
        {
          label: 'Your lease:',
          answer: 'lease.pdf',
          file: {
            key: 'uploads/5/lease.pdf',
            filename: 'lease.pdf',
            content_type: 'application/pdf',
            size: 2048,
          },
        },
      ]),
    )
    renderRequest(22)
    const link = await screen.findByRole('link', {
      name: /^lease\.pdf\s*\(PDF, opens in a new tab\)$/,
    })
    expect(link).toHaveAttribute(
      'href',
      `/attachments/${encodeURIComponent('uploads/5/lease.pdf')}?view=inline`,
    )
    expect(link).toHaveAttribute('target', '_blank')
  })

  it('without a summary (no survey, or not loaded) the details show as text; no details, no call', async () => {
    const calls: number[] = []
    const request = makeRequest({ id: 23, details: 'Please call me', messages: [] })
    server.use(
      detailHandler(() => request),
      summaryHandler(23, [], calls),
    )
    renderRequest(23)
    expect(await screen.findByText('Please call me')).toBeInTheDocument()
    await waitFor(() => expect(calls).toEqual([23]))
    expect(screen.queryByRole('link', { name: /opens in a new tab/ })).toBeNull()
  })
})

describe('Request: message composer', () => {
  it('§5 Message composer: an empty or whitespace-only message is not sent', async () => {
    const sent: SentMessage[] = []
    const state = { request: makeRequest({ id: 20 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(20)
    const send = await screen.findByRole('button', { name: 'Send' })
    await user.click(send)
    expect(await screen.findByText('Please enter a message')).toBeInTheDocument()
    await user.type(screen.getByRole('textbox', { name: 'Message' }), '   ')
    await user.click(send)
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveAttribute('aria-invalid', 'true')
    expect(sent).toHaveLength(0)
  })

  it('§5 Message composer: a message of characters that show nothing (zero-width spaces) is not sent', async () => {
    const sent: SentMessage[] = []
    const state = { request: makeRequest({ id: 18 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(18)
    const box = await screen.findByRole('textbox', { name: 'Message' })
    await user.type(box, ' \u200b\u200b ')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    expect(await screen.findByText('Please enter a message')).toBeInTheDocument()
    expect(box).toBeInvalid()
    expect(sent).toHaveLength(0)
  })

  it('§5 Message composer: Send with an empty box tells a screen reader why nothing was sent', async () => {
    const sent: SentMessage[] = []
    const state = { request: makeRequest({ id: 19 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(19)
    const send = await screen.findByRole('button', { name: 'Send' })
    send.focus()
    await user.keyboard('{Enter}')
    // Focus goes to the box, which reads as invalid with the reason: the button alone says nothing.
    const box = screen.getByRole('textbox', { name: 'Message' })
    await waitFor(() => expect(box).toHaveFocus())
    expect(box).toHaveAccessibleDescription('Please enter a message')
    expect(box).toBeInvalid()
    expect(sent).toHaveLength(0)
  })

  it('§5 Message composer: Ctrl+Enter in the empty box reads out why nothing was sent', async () => {
    const sent: SentMessage[] = []
    const state = { request: makeRequest({ id: 18 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(18)
    const box = await screen.findByRole('textbox', { name: 'Message' })
    await user.click(box)
    await user.keyboard('{Control>}{Enter}{/Control}')
    // Focus stays in the box, so only an alert tells a screen reader.
    expect(await screen.findByRole('alert')).toHaveTextContent('Please enter a message')
    expect(box).toHaveFocus()
    expect(sent).toHaveLength(0)
    await user.type(box, 'Hi')
    expect(screen.queryByRole('alert')).toBeNull()
  })

  it('§2 Request: sending clears the composer and refetches the request', async () => {
    const sent: SentMessage[] = []
    const calls = { count: 0 }
    const state = { request: makeRequest({ id: 21 }) }
    server.use(
      detailHandler(() => state.request, calls),
      messageHandler(state, sent),
    )
    const { user } = renderRequest(21)
    const box = await screen.findByRole('textbox', { name: 'Message' })
    await user.type(box, '  Hello there  ')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].body).toEqual({
      message: { body: 'Hello there', source: 'user', source_name: 'Jane Doe' },
      reopen: false,
    })
    expect(sent[0].idempotencyKey).toMatch(/^[0-9a-f-]{32,36}$/)
    await waitFor(() => expect(calls.count).toBe(2))
    expect(box).toHaveValue('')
    const list = await screen.findByRole('list', { name: 'Messages' })
    expect(within(list).getByText('Hello there')).toBeInTheDocument()
  })

  it('§7 Request messages: an employee with the longest name still sends (source_name fits the API)', async () => {
    const sent: SentMessage[] = []
    const state = { request: makeRequest({ id: 17 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
    )
    const fullName = `${'A'.repeat(150)} ${'B'.repeat(150)}`
    const { user } = renderWithProviders(<Request />, {
      route: '/requests/17',
      path: '/requests/:requestId',
      user: makeUser({
        first_name: 'A'.repeat(150),
        last_name: 'B'.repeat(150),
        full_name: fullName,
      }),
    })
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Hello')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    // The API refuses a source_name over 200 characters (it stores the name cut to fit).
    expect(sent[0].body.message.source_name).toBe(fullName.slice(0, 200))
  })

  it('§5 Message attachments: a non-image non-PDF file is refused with the §5 text', async () => {
    const state = { request: makeRequest({ id: 22 }) }
    server.use(detailHandler(() => state.request))
    renderRequest(22)
    await screen.findByRole('textbox', { name: 'Message' })
    const notes = new File(['hi'], 'notes.txt', { type: 'text/plain' })
    fireEvent.change(fileInput(), { target: { files: [notes] } })
    expect(
      await screen.findByText(
        "'notes.txt' has an invalid file type. Only images or PDFs are allowed.",
      ),
    ).toBeInTheDocument()
    expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument()
  })

  it('§5 File upload: a file over 25 MB is refused with the §5 text', async () => {
    const state = { request: makeRequest({ id: 23 }) }
    server.use(detailHandler(() => state.request))
    renderRequest(23)
    await screen.findByRole('textbox', { name: 'Message' })
    const big = pdf('big.pdf')
    Object.defineProperty(big, 'size', { value: 26_214_401 })
    fireEvent.change(fileInput(), { target: { files: [big] } })
    expect(
      await screen.findByText('File size exceeds 25 MB, please upload a smaller file.'),
    ).toBeInTheDocument()
  })

  it('§4 File upload: Pending → Uploaded, Send disabled while uploading; the key is sent with the message', async () => {
    const sent: SentMessage[] = []
    const presigned: unknown[] = []
    const putGate = createGate()
    const state = { request: makeRequest({ id: 24 }) }
    server.use(
      detailHandler(() => state.request),
      messageHandler(state, sent),
      http.post(apiUrl('/api/v1/uploads/presigned_url'), async ({ request }) => {
        presigned.push(await request.json())
        return HttpResponse.json({
          presigned_url: `${STORAGE}/lease.pdf`,
          key: 'uploads/24/lease.pdf',
        })
      }),
      http.put(`${STORAGE}/lease.pdf`, async () => {
        await putGate.opened
        return new HttpResponse(null, { status: 200 })
      }),
    )
    const { user } = renderRequest(24)
    await user.type(await screen.findByRole('textbox', { name: 'Message' }), 'Here is the lease')
    await user.upload(fileInput(), pdf())
    const selected = await screen.findByRole('list', { name: 'Selected file' })
    expect(within(selected).getByText('lease.pdf')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    await waitFor(() =>
      expect(within(selected).getByText(/^(Pending|Uploading \d+%)$/)).toBeInTheDocument(),
    )
    putGate.open()
    expect(await within(selected).findByText('Uploaded')).toBeInTheDocument()
    expect(presigned).toEqual([{ upload: { filename: 'lease.pdf', request_id: 24 } }])
    const send = screen.getByRole('button', { name: 'Send' })
    expect(send).toBeEnabled()
    await user.click(send)
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(sent[0].body.message).toEqual({
      body: 'Here is the lease',
      source: 'user',
      source_name: 'Jane Doe',
      attachment_keys: ['uploads/24/lease.pdf'],
    })
    // The composer and the upload are reset; the new message shows with its attachment.
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument(),
    )
    expect(screen.getByRole('textbox', { name: 'Message' })).toHaveValue('')
    const link = await screen.findByRole('link', { name: /lease\.pdf/ })
    expect(link).toHaveAttribute('href', '/attachments/uploads%2F24%2Flease.pdf?view=inline')
  })

  it('§8 Message file upload error: the selection is cleared and the §8 text shown', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const state = { request: makeRequest({ id: 25 }) }
    server.use(
      detailHandler(() => state.request),
      http.post(apiUrl('/api/v1/uploads/presigned_url'), () =>
        HttpResponse.json({ presigned_url: `${STORAGE}/photo.png`, key: 'k/photo.png' }),
      ),
      http.put(`${STORAGE}/photo.png`, () => new HttpResponse('denied', { status: 403 })),
    )
    const { user } = renderRequest(25)
    await screen.findByRole('textbox', { name: 'Message' })
    await user.upload(fileInput(), new File(['png'], 'photo.png', { type: 'image/png' }))
    expect(
      await screen.findByText(
        'There was an error uploading your file: Error uploading photo.png. We have been notified of the error, but you are welcome to try again.',
      ),
    ).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument(),
    )
    expect(screen.getByRole('button', { name: 'Send' })).toBeEnabled()
  })

  it('§4 File upload: choosing the same file again is ignored', async () => {
    let presignCalls = 0
    const state = { request: makeRequest({ id: 26 }) }
    server.use(
      detailHandler(() => state.request),
      http.post(apiUrl('/api/v1/uploads/presigned_url'), () => {
        presignCalls++
        return HttpResponse.json({ presigned_url: `${STORAGE}/lease.pdf`, key: 'k/lease.pdf' })
      }),
      http.put(`${STORAGE}/lease.pdf`, () => new HttpResponse(null, { status: 200 })),
    )
    const { user } = renderRequest(26)
    await screen.findByRole('textbox', { name: 'Message' })
    await user.upload(fileInput(), pdf())
    expect(await screen.findByText('Uploaded')).toBeInTheDocument()
    await user.upload(fileInput(), pdf())
    expect(screen.getByText('Uploaded')).toBeInTheDocument()
    expect(presignCalls).toBe(1)
  })

  it("§8 Failed API calls: 'Failed to create message' is logged, shown, and a retry reuses the Idempotency-Key", async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const keys: (string | null)[] = []
    let fail = true
    const state = { request: makeRequest({ id: 27 }) }
    const sent: SentMessage[] = []
    const ok = messageHandler(state, sent)
    server.use(
      detailHandler(() => state.request),
      http.post(apiUrl('/api/v1/requests/:id/messages'), ({ request }) => {
        keys.push(request.headers.get('Idempotency-Key'))
        if (fail) {
          return HttpResponse.json(
            { success: false, error: 'The concierge service is unavailable.' },
            { status: 503 },
          )
        }
        return undefined
      }),
      ok,
    )
    const { user } = renderRequest(27)
    const box = await screen.findByRole('textbox', { name: 'Message' })
    await user.type(box, 'Are you there?')
    await user.click(screen.getByRole('button', { name: 'Send' }))
    // §8 composed errors: it says the message was not sent, the server's words beside.
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Not sent: The concierge service is unavailable. Please try again.',
    )
    expect(errors).toHaveBeenCalledWith('Failed to create message', expect.anything())
    expect(box).toHaveValue('Are you there?')
    fail = false
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() => expect(sent).toHaveLength(1))
    expect(keys).toHaveLength(2)
    expect(keys[0]).toBeTruthy()
    expect(keys[1]).toBe(keys[0])
    expect(sent[0].idempotencyKey).toBe(keys[0])
    await waitFor(() => expect(box).toHaveValue(''))
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })
})

describe('Request: long threads (Hardening 8)', () => {
  it('Hardening 8: the thread starts with the newest page; Load older messages fetches the page before it', async () => {
    const request = makeRequest({
      id: 7,
      details: 'Moving on the 1st',
      older_cursor: '3',
      messages: [
        makeMessage({ id: 3, body_html: 'Third', external_created_at: minutesAgo(30) }),
        makeMessage({ id: 4, body_html: 'Fourth', external_created_at: minutesAgo(20) }),
      ],
    })
    const asked: string[] = []
    server.use(
      detailHandler(() => request),
      http.get(apiUrl('/api/v1/requests/:id/messages'), ({ request: call, params }) => {
        asked.push(`${params.id}?${new URL(call.url).searchParams}`)
        return HttpResponse.json({
          messages: [
            makeMessage({ id: 1, body_html: 'First', external_created_at: minutesAgo(50) }),
            makeMessage({ id: 2, body_html: 'Second', external_created_at: minutesAgo(40) }),
          ],
          older_cursor: null,
        })
      }),
    )
    const { user } = renderRequest(7)
    const list = await screen.findByRole('list', { name: 'Messages' })
    const bodies = () =>
      within(list)
        .getAllByRole('article')
        .map((article) => article.textContent ?? '')
    expect(bodies()).toHaveLength(2)
    // The request's details open the thread, so they wait for its start.
    expect(screen.queryByText('Moving on the 1st')).not.toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Load older messages' }))
    await screen.findByText('First')
    expect(asked).toEqual(['7?before=3'])
    const order = bodies()
    expect(order.slice(1).map((text) => text.match(/First|Second|Third|Fourth/)?.[0])).toEqual([
      'First',
      'Second',
      'Third',
      'Fourth',
    ])
    expect(order[0]).toContain('Moving on the 1st')
    expect(screen.getByText('This is the start of the conversation.')).toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Load older messages' })).not.toBeInTheDocument()
  })
})
