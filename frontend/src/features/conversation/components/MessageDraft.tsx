/**
 * A message being written, shared by the employee's composer and the desk's reply: the text
 * (required), one optional image or PDF uploaded for the request before sending (chosen with the
 * button, dropped anywhere on the composer, or pasted into the text), Ctrl/⌘ + Enter to send,
 * and one Idempotency-Key per send attempt (a retry of the same message reuses it, so it posts
 * once). Each side sends the draft with its own call.
 */
import { onlineManager } from '@tanstack/react-query'
import { Send, WifiOff } from 'lucide-react'
import {
  type ChangeEvent,
  type ClipboardEvent,
  type DragEvent,
  type FormEvent,
  type KeyboardEvent,
  type ReactNode,
  useId,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react'
import { Button, type FileUploadHandle, type TextInputElement } from '@/design-system'
import { ApiError } from '@/lib/apiError'
import { useSendAttemptKey } from '../hooks/useSendAttemptKey'
import { ErrorBox, MessageAttachmentField, useSingleFileUpload } from '../uploads'

/** Spec §5 'one file per message', when several files are dropped at once. */
export const ONE_FILE_ONLY = 'Only one file can be attached to a message.'

export interface DraftToSend {
  body: string
  attachmentKeys: string[]
  idempotencyKey: string
}

/** Whitespace and characters that show nothing (zero-width spaces and joiners) only: §5's blank. */
function isBlank(text: string): boolean {
  return text.replace(/[\u200b-\u200d\u2060\ufeff]/g, '').trim() === ''
}

function carriesFiles(event: DragEvent): boolean {
  return Array.from(event.dataTransfer?.types ?? []).includes('Files')
}

// The browser's connection as TanStack Query sees it (window 'online' and 'offline' events).
const onlineSubscribe = (onChange: () => void) => onlineManager.subscribe(onChange)
const onlineNow = () => onlineManager.isOnline()

export function useMessageDraft(emptyError: string) {
  const upload = useSingleFileUpload()
  const fileRef = useRef<FileUploadHandle>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const textRef = useRef<TextInputElement>(null)
  const [text, setText] = useState('')
  const [fieldError, setFieldError] = useState<string | null>(null)
  const [errorReadOut, setErrorReadOut] = useState(false)
  const [dragging, setDragging] = useState(false)
  const [dropError, setDropError] = useState<string | null>(null)
  const attemptKey = useSendAttemptKey()
  const online = useSyncExternalStore(onlineSubscribe, onlineNow)
  const uploading = upload.status === 'pending' || upload.status === 'uploading'

  /** After a send: an empty composer, and the next message gets a new key. */
  const clear = () => {
    attemptKey.clear()
    setText('')
    setFieldError(null)
    setErrorReadOut(false)
    setDropError(null)
    upload.reset()
    fileRef.current?.reset()
  }

  /** Back to the text, where the next message is written (e.g. after Send). */
  const focusText = () => textRef.current?.focus()

  const submitWith =
    (sending: boolean, send: (draft: DraftToSend) => void) => (event: FormEvent) => {
      event.preventDefault()
      if (sending || uploading) return
      const body = text.trim()
      if (isBlank(body)) {
        setFieldError(emptyError)
        // Nothing is read out where Send was pressed: focused, the text reads its error. Sent
        // from the text itself (Ctrl/⌘ + Enter), focus does not move, so the error is read out.
        setErrorReadOut(document.activeElement === textRef.current)
        focusText()
        return
      }
      const attachmentKeys = upload.status === 'uploaded' && upload.key ? [upload.key] : []
      send({ body, attachmentKeys, idempotencyKey: attemptKey.keyFor(body, attachmentKeys) })
    }

  // Ctrl/⌘ + Enter sends; Enter alone adds a line.
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault()
      formRef.current?.requestSubmit()
    }
  }

  const onChange = (event: ChangeEvent<TextInputElement>) => {
    setText(event.target.value)
    if (fieldError && !isBlank(event.target.value)) {
      setFieldError(null)
      setErrorReadOut(false)
    }
  }

  const choose = (file: File) => {
    setDropError(null)
    fileRef.current?.select(file)
  }

  // A pasted image (a screenshot) becomes the attachment; pasted text stays text.
  const onPaste = (event: ClipboardEvent<TextInputElement>) => {
    const image = Array.from(event.clipboardData?.files ?? []).find((file) =>
      file.type.startsWith('image/'),
    )
    if (!image) return
    event.preventDefault()
    choose(image)
  }

  // A file dropped anywhere on the composer is chosen as the attachment.
  const dropZone = {
    onDragOver: (event: DragEvent<HTMLFormElement>) => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDragging(true)
    },
    onDragLeave: (event: DragEvent<HTMLFormElement>) => {
      if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false)
    },
    onDrop: (event: DragEvent<HTMLFormElement>) => {
      if (!carriesFiles(event)) return
      event.preventDefault()
      setDragging(false)
      const files = Array.from(event.dataTransfer.files)
      if (files.length === 1) choose(files[0])
      else if (files.length > 1) setDropError(ONE_FILE_ONLY)
    },
  }

  return {
    upload,
    fileRef,
    formRef,
    uploading,
    clear,
    focusText,
    submitWith,
    dragging,
    dropZone,
    dropError,
    online,
    /** The text's error, to read out where focus does not move to it. */
    spokenError: errorReadOut ? fieldError : null,
    textField: { ref: textRef, value: text, error: fieldError, onKeyDown, onChange, onPaste },
  }
}

export type MessageDraft = ReturnType<typeof useMessageDraft>

/** Drop files here: the composer's outline while a file is dragged over it. */
export function dropTargetClass(draft: MessageDraft): string {
  return draft.dragging ? 'ring-2 ring-primary-500 ring-offset-2 bg-primary-50/60' : ''
}

/**
 * Whether a draft holds anything (text, a file, an error or the offline notice to read): a
 * composer folded to one line opens up for it even when focus is elsewhere.
 */
export function draftHasContent(
  draft: MessageDraft,
  send: { isPending: boolean; error: Error | null },
): boolean {
  return Boolean(
    draft.textField.value ||
      draft.textField.error ||
      draft.upload.status !== 'idle' ||
      draft.dropError ||
      draft.dragging ||
      !draft.online ||
      send.isPending ||
      send.error,
  )
}

/** Why the last send failed, as the person reads it: what the server said when it is about the
 * message (a 4xx: 'This request is completed.'), else that it was not sent, with the server's
 * words or status beside (spec §8 'Composed errors'), and that trying again is safe. */
export function sendFailure(error: Error): string {
  const status = error instanceof ApiError ? error.status : 0
  if (status >= 400 && status < 500) return error.message
  return `Not sent: ${error.message.replace(/[.!]\s*$/, '')}. Please try again.`
}

/** Shown while a send waits for the browser to be back online. */
export const SEND_WHEN_ONLINE = 'You’re offline. It will be sent when you’re back online.'
/** Shown while the browser is offline, before anything is sent. */
export const OFFLINE = 'You’re offline. What you send will go when you’re back online.'

/**
 * A failed send's message, the browser being offline, a refused drop, then the attach button
 * and the send button.
 * `folded`: the composer is one line, so both buttons show their icons only (their names stay
 * for screen readers).
 */
export function DraftAttachmentAndSend({
  draft,
  requestId,
  send,
  hint,
  folded = false,
  sentText = 'Sent.',
  children,
}: {
  draft: MessageDraft
  requestId: number
  /** The send mutation: pending while sending (paused while the browser is offline: it goes
   * once the browser is back online); its error says why the last send failed. */
  send: { isPending: boolean; isPaused?: boolean; isSuccess?: boolean; error: Error | null }
  /** Read out once a send went through (the box is empty again, focus still in it). */
  sentText?: string
  hint?: string
  folded?: boolean
  /** The send button's label. */
  children: ReactNode
}) {
  const errorId = useId()
  const sending = send.isPending
  const error = send.error ? sendFailure(send.error) : undefined
  return (
    <>
      {/* Each send that went through is announced: the empty box alone says nothing (WCAG 4.1.3). */}
      <p role="status" className="sr-only">
        {send.isSuccess ? sentText : ''}
      </p>
      {draft.spokenError ? (
        <p role="alert" className="sr-only">
          {draft.spokenError}
        </p>
      ) : null}
      {error ? <ErrorBox id={errorId} message={error} /> : null}
      {send.isPaused || !draft.online ? (
        <p role="status" className="flex items-center gap-2 text-sm font-medium text-ink-muted">
          <WifiOff aria-hidden="true" className="size-4 shrink-0" />
          {send.isPaused ? SEND_WHEN_ONLINE : OFFLINE}
        </p>
      ) : null}
      {draft.dropError ? <ErrorBox message={draft.dropError} /> : null}
      <MessageAttachmentField
        ref={draft.fileRef}
        upload={draft.upload}
        requestId={requestId}
        isDisabled={sending}
        compact
        iconOnly={folded}
        trailing={
          <>
            {hint && !folded ? (
              <span className="hidden text-xs text-ink-muted lg:inline">{hint}</span>
            ) : null}
            <Button
              type="submit"
              icon={<Send />}
              iconPosition="end"
              loading={sending}
              disabled={draft.uploading}
              aria-describedby={error ? errorId : undefined}
              className={folded ? 'min-w-11 px-0!' : undefined}
            >
              <span className={folded ? 'sr-only' : undefined}>{children}</span>
            </Button>
          </>
        }
      />
    </>
  )
}
