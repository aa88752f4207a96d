/**
 * The pieces of a request thread shared by the employee's Request screen and the concierge desk:
 * the empty state, a message bubble (who, when, the sanitised body and its attachments), the
 * attachments opened in place (thumbnails for the image viewer, PDFs in the browser's viewer)
 * and the line before a message that reopened the request. Each side decides which messages
 * are its own (right-aligned).
 */
import { useQuery } from '@tanstack/react-query'
import {
  ChevronUp,
  Download,
  ExternalLink,
  FileText,
  Image as ImageIcon,
  Mail,
  MessagesSquare,
  RotateCcw,
} from 'lucide-react'
import { type ReactNode, useLayoutEffect, useRef, useState } from 'react'
import { Button, cx, focusRing, formatFileSize } from '@/design-system'
import { formatWhen, relativeTime } from '@/lib/format'
import type { MessageAttachment } from '../api'
import {
  attachmentKind,
  attachmentViewPath,
  downloadAttachment,
  inlineAttachmentQuery,
} from '../attachments'
import { useInView } from '../hooks/useInView'
import type { OlderMessages } from '../hooks/useOlderMessages'
import type { ThreadEntry } from '../thread'
import { useThreadImages } from './ImageViewer'

/** 'No messages yet', with what happens next. */
export function EmptyThread({ children }: { children: ReactNode }) {
  return (
    <div className="flex flex-col items-center gap-3 rounded-2xl border border-dashed border-line-strong/60 bg-surface px-6 py-10 text-center">
      <MessagesSquare aria-hidden="true" className="size-8 text-primary-600" />
      <p className="font-semibold text-ink">No messages yet</p>
      <p className="max-w-sm text-sm text-ink-muted">{children}</p>
    </div>
  )
}

/** The messages, oldest first. */
export function MessageList({ children }: { children: ReactNode }) {
  return (
    <ol aria-label="Messages" className="flex flex-col gap-5">
      {children}
    </ol>
  )
}

/** The element that scrolls `element` into view: a scrolling ancestor, else the page. */
function scrollerOf(element: HTMLElement): Element {
  for (let node = element.parentElement; node; node = node.parentElement) {
    const { overflowY } = getComputedStyle(node)
    if ((overflowY === 'auto' || overflowY === 'scroll') && node.scrollHeight > node.clientHeight) {
      return node
    }
  }
  return document.scrollingElement ?? document.documentElement
}

/**
 * 'Load older messages' above a paged thread, then 'This is the start of the conversation'
 * once it is all loaded. The loaded page goes above what is on screen, which stays in place;
 * when the button goes, focus moves to the note that replaced it.
 */
export function LoadOlderMessages({ older }: { older: OlderMessages }) {
  const ref = useRef<HTMLDivElement>(null)
  const saved = useRef<{ scroller: Element; height: number; top: number } | null>(null)
  const { loading, hasOlder, messages } = older

  useLayoutEffect(() => {
    const position = saved.current
    if (!position || loading) return
    saved.current = null
    const grown = position.scroller.scrollHeight - position.height
    position.scroller.scrollTop = position.top + grown
    if (!hasOlder && messages.length > 0) ref.current?.focus({ preventScroll: true })
  }, [loading, hasOlder, messages])

  if (!hasOlder && !older.loadedAny) return null
  const load = () => {
    if (ref.current) {
      const scroller = scrollerOf(ref.current)
      saved.current = { scroller, height: scroller.scrollHeight, top: scroller.scrollTop }
    }
    older.loadOlder()
  }
  return (
    <div
      ref={ref}
      tabIndex={-1}
      className={cx('flex flex-col items-center gap-2 rounded-xl py-1', focusRing)}
    >
      {hasOlder ? (
        <Button variant="secondary" size="sm" icon={<ChevronUp />} loading={loading} onClick={load}>
          Load older messages
        </Button>
      ) : (
        <p className="text-sm text-ink-muted">This is the start of the conversation.</p>
      )}
      {older.error ? (
        <p role="alert" className="text-sm font-medium text-danger-800">
          {older.error}
        </p>
      ) : null}
    </div>
  )
}

/** One message's row: the viewer's own side on the right. `from` names the sender's side. */
function MessageRow({
  from,
  alignEnd,
  children,
}: {
  from: string
  alignEnd: boolean
  children: ReactNode
}) {
  return (
    <li data-from={from} className={cx('flex gap-3', alignEnd ? 'justify-end' : 'justify-start')}>
      {children}
    </li>
  )
}

/**
 * One entry of the thread: who wrote it and when, then its body and attachments (a message) or
 * `children` (the request-received entry). `leading` goes before the bubble (an avatar).
 */
export function ThreadMessage({
  entry,
  who,
  from,
  tone,
  now,
  leading,
  reopenedBy,
  children,
}: {
  entry: ThreadEntry
  who: string
  from: string
  tone: BubbleTone
  now?: number
  leading?: ReactNode
  /** Who reopened the request with this message, for the event line above it ('You'). */
  reopenedBy?: string
  children?: ReactNode
}) {
  const reopened = entry.kind === 'message' && entry.reopenedRequest
  return (
    <>
      {reopened && reopenedBy ? <ReopenedLine who={reopenedBy} /> : null}
      <MessageRow from={from} alignEnd={tone !== 'other'}>
        {leading}
        <MessageBubble
          who={who}
          createdAt={entry.createdAt}
          now={now}
          tone={tone}
          byEmail={entry.kind === 'message' && entry.byEmail}
        >
          {entry.kind === 'message' ? (
            <MessageContent bodyHtml={entry.bodyHtml} attachments={entry.attachments} tone={tone} />
          ) : (
            children
          )}
        </MessageBubble>
      </MessageRow>
    </>
  )
}

/** The event line before the message that reopened a Completed request. */
function ReopenedLine({ who }: { who: string }) {
  const text = who === 'You' ? 'You reopened this request' : `Reopened by ${who} with a new message`
  return (
    <li data-event="reopened" className="flex items-center gap-3 text-xs text-ink-muted">
      <span aria-hidden="true" className="h-px flex-1 bg-line" />
      <span className="inline-flex items-center gap-1.5 font-medium">
        <RotateCcw aria-hidden="true" className="size-3.5" />
        {text}
      </span>
      <span aria-hidden="true" className="h-px flex-1 bg-line" />
    </li>
  )
}

/** `own`: the viewer's side, right-aligned in the brand colour; `tinted`: right-aligned, light. */
export type BubbleTone = 'own' | 'tinted' | 'other'

const BUBBLE_TONES: Record<BubbleTone, string> = {
  own: 'rounded-tr-sm bg-primary-600 text-white',
  tinted: 'rounded-tr-sm border border-primary-100 bg-primary-50 text-ink',
  other: 'rounded-tl-sm border border-line bg-surface text-ink',
}

/** Links written in a message's text; attachments keep their own colours. */
const BODY_LINK_TONES: Record<BubbleTone, string> = {
  own: '[&_a]:text-white',
  tinted: '[&_a]:text-primary-700',
  other: '[&_a]:text-primary-700',
}

function MessageBubble({
  who,
  createdAt,
  now,
  tone,
  byEmail = false,
  children,
}: {
  who: string
  createdAt: string
  now?: number
  tone: BubbleTone
  /** Written by replying to a notification email: said next to the time. */
  byEmail?: boolean
  children: ReactNode
}) {
  const when = relativeTime(createdAt, now)
  return (
    <article
      aria-label={`Message from ${who}`}
      className={cx(
        'flex max-w-[85%] flex-col gap-1 sm:max-w-[75%]',
        tone === 'other' ? 'items-start' : 'items-end',
      )}
    >
      <p className="flex items-baseline gap-2 px-1 text-xs text-ink-muted">
        <span className="font-semibold text-ink">{who}</span>
        {when ? (
          <time dateTime={createdAt} title={formatWhen(createdAt, { now, capitalize: true })}>
            {when}
          </time>
        ) : null}
        {byEmail ? (
          <span data-by-email="" className="inline-flex items-center gap-1">
            <Mail aria-hidden="true" className="size-3.5" />
            by email
          </span>
        ) : null}
      </p>
      <div
        className={cx(
          'flex min-w-0 flex-col gap-3 rounded-2xl px-4 py-3 text-base wrap-anywhere shadow-xs',
          BUBBLE_TONES[tone],
        )}
      >
        {children}
      </div>
    </article>
  )
}

/** A message's body and attachments. */
function MessageContent({
  bodyHtml,
  attachments,
  tone,
}: {
  /** Sanitised on the server: only <a href> and <br> survive, and newlines arrive as <br>. */
  bodyHtml: string
  attachments: readonly MessageAttachment[]
  tone: BubbleTone
}) {
  return (
    <>
      {bodyHtml ? (
        <div
          className={cx('[&_a]:underline [&_a]:underline-offset-2', BODY_LINK_TONES[tone])}
          // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server (see bodyHtml)
          dangerouslySetInnerHTML={{ __html: bodyHtml }}
        />
      ) : null}
      {attachments.length > 0 ? <AttachmentList attachments={attachments} tone={tone} /> : null}
    </>
  )
}

/**
 * A file chip's colours on each bubble: its name and icons, and its size, read at 4.5:1 or
 * more on the chip (tokens.css). On the own bubble's teal the ring is white, so it stands out
 * (3:1) from the bubble.
 */
const ATTACHMENT_TONES: Record<BubbleTone, { link: string; size: string }> = {
  own: {
    link: 'bg-white text-primary-800 hover:bg-primary-50 focus-visible:outline-white',
    size: 'text-ink-muted',
  },
  tinted: {
    link: 'bg-surface text-primary-800 ring-1 ring-line hover:bg-primary-100',
    size: 'text-ink-muted',
  },
  other: { link: 'bg-primary-50 text-primary-800 hover:bg-primary-100', size: 'text-ink-muted' },
}

/**
 * A message's attachments, opened without leaving the thread: images as thumbnails that open
 * the thread's image viewer; PDFs in the browser's viewer in a new tab; anything else saved as
 * a download (the page stays).
 */
export function AttachmentList({
  attachments,
  tone,
}: {
  attachments: readonly MessageAttachment[]
  tone: BubbleTone
}) {
  const images = attachments.filter((a) => attachmentKind(a) === 'image')
  const others = attachments.filter((a) => attachmentKind(a) !== 'image')
  return (
    <>
      {images.length > 0 ? (
        <ul aria-label="Images" className="flex flex-wrap gap-2">
          {images.map((attachment) => (
            <li key={attachment.key}>
              <AttachmentThumbnail attachment={attachment} />
            </li>
          ))}
        </ul>
      ) : null}
      {others.length > 0 ? (
        <ul aria-label="Attachments" className="flex flex-col gap-2">
          {others.map((attachment) => (
            <li key={attachment.key}>
              <FileChip attachment={attachment} tone={tone} />
            </li>
          ))}
        </ul>
      ) : null}
    </>
  )
}

/**
 * An image's thumbnail that opens the thread's image viewer (a message's image, a survey's
 * photo answer): its address is asked for only when it comes near the screen.
 */
export function AttachmentThumbnail({ attachment }: { attachment: MessageAttachment }) {
  const viewer = useThreadImages()
  const [ref, inView] = useInView<HTMLButtonElement>()
  const { data: url, isError } = useQuery({
    ...inlineAttachmentQuery(attachment.key),
    enabled: inView,
  })
  return (
    <button
      ref={ref}
      type="button"
      aria-haspopup="dialog"
      aria-label={`View image ${attachment.filename}`}
      onClick={() => viewer?.open(attachment.key)}
      className={cx(
        'relative flex h-24 w-32 items-center justify-center overflow-hidden rounded-xl bg-neutral-100 text-ink-muted shadow-xs sm:h-36 sm:w-48',
        'transition-opacity hover:opacity-90 motion-reduce:transition-none',
        focusRing,
      )}
    >
      {url && !isError ? (
        <img
          src={url}
          alt=""
          width={192}
          height={144}
          loading="lazy"
          decoding="async"
          data-thumbnail=""
          className="size-full object-cover"
        />
      ) : (
        <ImageIcon aria-hidden="true" className="size-8" />
      )}
    </button>
  )
}

/** Downloads an attachment in place (the page stays), with the failure's message to show. */
function useAttachmentDownload(key: string) {
  const [error, setError] = useState<string | null>(null)
  const start = () => {
    setError(null)
    downloadAttachment(key).catch((e: Error) => setError(e.message))
  }
  return { error, start }
}

/** A PDF (opens in the browser's viewer, new tab) or another file (downloads in place). */
function FileChip({ attachment, tone }: { attachment: MessageAttachment; tone: BubbleTone }) {
  const styles = ATTACHMENT_TONES[tone]
  const download = useAttachmentDownload(attachment.key)
  const className = cx(
    'flex w-full items-center gap-2 rounded-xl px-3 py-2 text-left text-sm',
    focusRing,
    styles.link,
  )
  const body = (
    <>
      <FileText aria-hidden="true" className="size-4 shrink-0" />
      <span className="min-w-0 truncate font-semibold">{attachment.filename}</span>
      {attachment.size != null ? (
        <span className={cx('shrink-0 tabular-nums', styles.size)}>
          {formatFileSize(attachment.size)}
        </span>
      ) : null}
    </>
  )
  if (attachmentKind(attachment) === 'pdf') {
    return (
      <a
        href={attachmentViewPath(attachment.key)}
        target="_blank"
        rel="noopener"
        className={className}
      >
        {body}
        <ExternalLink aria-hidden="true" className="size-3.5 shrink-0" />
        <span className="sr-only">(PDF, opens in a new tab)</span>
      </a>
    )
  }
  return (
    <>
      <button type="button" className={className} onClick={download.start}>
        {body}
        <Download aria-hidden="true" className="size-3.5 shrink-0" />
        <span className="sr-only">(download)</span>
      </button>
      {download.error ? (
        <p role="alert" className="mt-1 text-xs font-medium">
          {download.error}
        </p>
      ) : null}
    </>
  )
}

/**
 * A file named inside a line of text (the request summary's file answer), opened like the
 * thread's attachments: an image in the thread's image viewer, a PDF in the browser's viewer
 * in a new tab, anything else as a download that keeps the page.
 */
export function AttachmentLink({ attachment }: { attachment: MessageAttachment }) {
  const viewer = useThreadImages()
  const download = useAttachmentDownload(attachment.key)
  const kind = attachmentKind(attachment)
  const className = cx(
    'inline rounded-sm text-left font-semibold break-all text-primary-800 underline underline-offset-2 hover:text-primary-900',
    focusRing,
  )
  const iconClass = 'me-1 inline size-3.5 shrink-0 align-[-0.125em]'
  if (kind === 'image' && viewer) {
    return (
      <button
        type="button"
        aria-haspopup="dialog"
        className={className}
        onClick={() => viewer.open(attachment.key)}
      >
        <ImageIcon aria-hidden="true" className={iconClass} />
        {attachment.filename}
        <span className="sr-only"> (view image)</span>
      </button>
    )
  }
  if (kind !== 'file') {
    return (
      <a
        href={attachmentViewPath(attachment.key)}
        target="_blank"
        rel="noopener"
        className={className}
      >
        <FileText aria-hidden="true" className={iconClass} />
        {attachment.filename}
        <span className="sr-only"> ({kind === 'pdf' ? 'PDF' : 'image'}, opens in a new tab)</span>
      </a>
    )
  }
  return (
    <>
      <button type="button" className={className} onClick={download.start}>
        <Download aria-hidden="true" className={iconClass} />
        {attachment.filename}
        <span className="sr-only"> (download)</span>
      </button>
      {download.error ? (
        <span role="alert" className="block text-xs font-medium">
          {download.error}
        </span>
      ) : null}
    </>
  )
}
