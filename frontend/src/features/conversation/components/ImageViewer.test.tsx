import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { renderWithProviders, signInSession } from '@/test/render'
import { makeMessage } from '@/test/requestFixtures'
import { apiUrl, server } from '@/test/server'
import { buildThread } from '../thread'
import { ThreadImagesProvider } from './ImageViewer'
import { MessageList, ThreadMessage } from './ThreadParts'

const image = (key: string, filename: string) => ({
  key,
  filename,
  content_type: 'image/png',
  size: 2048,
})

const thread = buildThread({
  details: '',
  issued_at: new Date().toISOString(),
  created_at: new Date().toISOString(),
  messages: [
    makeMessage({ id: 1, source: 'user', attachments: [image('u/1/gate.png', 'gate.png')] }),
    makeMessage({
      id: 2,
      attachments: [
        image('u/2/dog.png', 'dog.png'),
        image('u/2/receipt.png', 'receipt.png'),
        {
          key: 'u/2/lease.pdf',
          filename: 'lease.pdf',
          content_type: 'application/pdf',
          size: 1536,
        },
        { key: 'u/2/notes.txt', filename: 'notes.txt', content_type: 'text/plain', size: 12 },
      ],
    }),
  ],
})

function Thread() {
  return (
    <ThreadImagesProvider entries={thread}>
      <MessageList>
        {thread.map((entry) => (
          <ThreadMessage
            key={entry.id}
            entry={entry}
            who={entry.fromUser ? 'You' : 'Alex'}
            from={entry.fromUser ? 'user' : 'concierge'}
            tone={entry.fromUser ? 'own' : 'other'}
          />
        ))}
      </MessageList>
    </ThreadImagesProvider>
  )
}

const originalLocation = window.location
const assign = vi.fn()

beforeEach(() => {
  signInSession()
  assign.mockReset()
  Object.defineProperty(window, 'location', {
    configurable: true,
    value: { ...originalLocation, origin: originalLocation.origin, assign },
  })
})

afterEach(() => {
  Object.defineProperty(window, 'location', { configurable: true, value: originalLocation })
})

describe('Attachments open inside the thread (issue 10)', () => {
  it('images are lazy thumbnails from inline addresses; a PDF opens in a new tab', async () => {
    const asked: string[] = []
    server.use(
      http.get(apiUrl('/api/v1/uploads/expiring_url'), ({ request }) => {
        const query = new URL(request.url).searchParams
        asked.push(`${query.get('key')} inline=${query.get('inline')}`)
        return HttpResponse.json({ expiring_url: `https://files.test/${query.get('key')}` })
      }),
    )
    renderWithProviders(<Thread />)
    const thumbnail = screen.getByRole('button', { name: 'View image gate.png' })
    expect(thumbnail).toHaveAttribute('aria-haspopup', 'dialog')
    await waitFor(() => expect(thumbnail.querySelector('img')).not.toBeNull())
    const img = thumbnail.querySelector('img') as HTMLImageElement
    expect(img).toHaveAttribute('src', 'https://files.test/u/1/gate.png')
    expect(img).toHaveAttribute('loading', 'lazy')
    expect(img).toHaveAttribute('width', '192')
    expect(img).toHaveAttribute('height', '144')
    await waitFor(() => expect(asked).toHaveLength(3))
    expect(asked).toContain('u/2/dog.png inline=true')

    const pdf = screen.getByRole('link', { name: /lease\.pdf/ })
    expect(pdf).toHaveAttribute('href', '/attachments/u%2F2%2Flease.pdf?view=inline')
    expect(pdf).toHaveAttribute('target', '_blank')
    expect(pdf).toHaveAccessibleName(/opens in a new tab/)
  })

  it('the viewer: keyboard opens it, arrows move through the thread, Download, Escape', async () => {
    const { user } = renderWithProviders(<Thread />)
    const first = screen.getByRole('button', { name: 'View image gate.png' })
    first.focus()
    await user.keyboard('{Enter}')
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer: gate.png' })
    expect(within(viewer).getByText('Image 1 of 3')).toBeInTheDocument()
    expect(await within(viewer).findByRole('img', { name: 'gate.png' })).toHaveAttribute(
      'src',
      'https://files.example.com/inline/u%2F1%2Fgate.png',
    )

    await user.keyboard('{ArrowRight}')
    expect(screen.getByRole('dialog', { name: 'Image viewer: dog.png' })).toBeInTheDocument()
    expect(screen.getByText('Image 2 of 3')).toBeInTheDocument()
    await user.keyboard('{ArrowLeft}{ArrowLeft}')
    expect(screen.getByRole('dialog', { name: 'Image viewer: receipt.png' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Next image' }))
    expect(screen.getByRole('dialog', { name: 'Image viewer: gate.png' })).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Previous image' }))

    await user.click(screen.getByRole('button', { name: 'Download' }))
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://files.example.com/download/u%2F2%2Freceipt.png'),
    )

    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument())
    await waitFor(() => expect(first).toHaveFocus())
  })

  it("§7 request thread: the image viewer's surface is opaque, so the thread never shows behind its name", async () => {
    const { user } = renderWithProviders(<Thread />)
    await user.click(screen.getByRole('button', { name: 'View image gate.png' }))
    const viewer = await screen.findByRole('dialog', { name: 'Image viewer: gate.png' })
    const surface = viewer.closest('[data-viewer-surface]')
    expect(surface).not.toBeNull()
    const backgrounds = [...(surface as Element).classList].filter((name) => name.startsWith('bg-'))
    // One solid colour of the design system: no alpha (bg-…/90, rgb(… / 0.9)).
    expect(backgrounds).toEqual(['bg-neutral-950'])
    expect(within(viewer).getByRole('heading', { name: 'gate.png' })).toBeInTheDocument()
  })

  it('a file that is neither an image nor a PDF downloads in place', async () => {
    const { user } = renderWithProviders(<Thread />)
    await user.click(screen.getByRole('button', { name: /notes\.txt/ }))
    await waitFor(() =>
      expect(assign).toHaveBeenCalledWith('https://files.example.com/download/u%2F2%2Fnotes.txt'),
    )
  })
})
