import {
  CircleAlert,
  CircleCheck,
  FileText,
  Image as ImageIcon,
  Paperclip,
  Upload,
  X,
} from 'lucide-react'
import {
  type ChangeEvent,
  type DragEvent,
  type ReactNode,
  type Ref,
  useCallback,
  useEffect,
  useId,
  useImperativeHandle,
  useRef,
  useState,
} from 'react'
import { ProgressBar } from '../progress-bar'
import { cx, focusRing } from '../utils'
import { fileTooLargeMessage, formatFileSize, isSameFile, MAX_UPLOAD_BYTES } from './formatFileSize'

export type FileUploadStatus = 'pending' | 'uploading' | 'uploaded'

export interface FileUploadHandle {
  /** Clears the selection and any local error (call it after a successful upload when the host is done). */
  reset: () => void
  /** Opens the file chooser. */
  open: () => void
  /** Takes a file given another way (dropped elsewhere, pasted), with the same checks. */
  select: (file: File) => void
}

export interface FileUploadProps {
  /** Text of the choose button. Default 'Choose a file'. */
  label?: string
  description?: ReactNode
  /** Default 26 214 400 (25 MB). */
  maxBytes?: number
  /** Passed to the file input (e.g. 'image/*,application/pdf'). No restriction by default. */
  accept?: string
  /** Called with a new, valid file. Duplicates of the current file and too-large files are not reported. */
  onFileSelected: (file: File) => void
  /** Called when the user removes the selected file. */
  onFileRemoved?: () => void
  /** Extra check; return an error message to refuse the file. */
  validate?: (file: File) => string | null | undefined
  /** Upload state, driven by the host. Default 'pending' once a file is chosen. */
  status?: FileUploadStatus
  /** Upload progress 0–100 while status is 'uploading'. */
  progress?: number
  /** Host error (e.g. 'Error uploading photo.png'). Clears the selection and is shown in the error box. */
  error?: string | null
  isDisabled?: boolean
  name?: string
  id?: string
  className?: string
  /**
   * 'dropzone' (default): a dashed drop area around the choose button. 'compact': the choose
   * button in a row with `trailing` (a composer's Send), the chosen file shown above it.
   */
  variant?: 'dropzone' | 'compact'
  /** Compact variant: what goes at the end of the button row. */
  trailing?: ReactNode
  /**
   * Compact variant: the choose button as its paperclip only (its label and the description
   * stay for screen readers), for a composer folded to one line.
   */
  iconOnly?: boolean
  ref?: Ref<FileUploadHandle>
}

function statusText(status: FileUploadStatus, progress: number) {
  if (status === 'uploading') return `Uploading ${Math.round(progress)}%`
  if (status === 'uploaded') return 'Uploaded'
  return 'Pending'
}

/**
 * Single-file picker with size check, duplicate detection and upload status. It holds only the
 * selection: the host uploads the file and feeds back `status`, `progress` and `error`.
 */
export function FileUpload({
  label = 'Choose a file',
  description,
  maxBytes = MAX_UPLOAD_BYTES,
  accept,
  onFileSelected,
  onFileRemoved,
  validate,
  status = 'pending',
  progress = 0,
  error,
  isDisabled = false,
  name,
  id,
  className,
  variant = 'dropzone',
  trailing,
  iconOnly = false,
  ref,
}: FileUploadProps) {
  const uid = useId()
  const inputId = id ?? `file-${uid}`
  const errorId = `${inputId}-error`
  const descriptionId = `${inputId}-description`
  const inputRef = useRef<HTMLInputElement>(null)
  const [file, setFile] = useState<File | null>(null)
  const [localError, setLocalError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)

  const clearInput = useCallback(() => {
    if (inputRef.current) inputRef.current.value = ''
  }, [])

  const chooseRef = useRef<(files: File[]) => void>(() => {})

  useImperativeHandle(
    ref,
    () => ({
      reset: () => {
        setFile(null)
        setLocalError(null)
        clearInput()
      },
      open: () => inputRef.current?.click(),
      select: (next: File) => chooseRef.current([next]),
    }),
    [clearInput],
  )

  // A failed upload clears the selection (spec §4).
  useEffect(() => {
    if (error) {
      setFile(null)
      clearInput()
    }
  }, [error, clearInput])

  const choose = (files: FileList | File[] | null) => {
    const list = files ? Array.from(files) : []
    clearInput()
    if (list.length === 0) return
    if (list.length !== 1) {
      console.error('FileUpload: exactly one file can be chosen at a time')
      return
    }
    const next = list[0]
    if (isSameFile(file, next)) return // duplicate: ignored
    if (next.size > maxBytes) {
      setLocalError(fileTooLargeMessage(maxBytes))
      return
    }
    const invalid = validate?.(next)
    if (invalid) {
      setLocalError(invalid)
      return
    }
    setLocalError(null)
    setFile(next)
    onFileSelected(next)
  }

  chooseRef.current = (files) => {
    if (!isDisabled) choose(files)
  }

  const onChange = (event: ChangeEvent<HTMLInputElement>) => choose(event.target.files)

  const onDrop = (event: DragEvent<HTMLDivElement>) => {
    event.preventDefault()
    setDragging(false)
    if (!isDisabled) choose(event.dataTransfer.files)
  }

  const remove = () => {
    setFile(null)
    setLocalError(null)
    clearInput()
    onFileRemoved?.()
    inputRef.current?.focus()
  }

  const shownError = localError ?? error ?? null
  const FileIcon = file?.type.startsWith('image/') ? ImageIcon : FileText
  const preview = useObjectUrl(file?.type.startsWith('image/') ? file : null)

  const input = (
    <input
      ref={inputRef}
      id={inputId}
      name={name}
      type="file"
      accept={accept}
      disabled={isDisabled}
      onChange={onChange}
      aria-invalid={shownError ? true : undefined}
      aria-describedby={cx(descriptionId, shownError ? errorId : '') || undefined}
      className="sr-only"
    />
  )
  const descriptionText = description ?? `One file, up to ${formatFileSize(maxBytes)}`

  const errorBox = shownError ? (
    <div
      id={errorId}
      role="alert"
      className="flex items-start gap-2 rounded-xl border border-danger-200 bg-danger-50 p-3 text-sm font-medium text-danger-800"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{shownError}</span>
    </div>
  ) : null

  const selected = file ? (
    <ul aria-label="Selected file" className="flex flex-col gap-2">
      <li className="flex items-center gap-3 rounded-xl border border-line bg-surface p-3 shadow-xs">
        {preview ? (
          <img
            src={preview}
            alt=""
            data-preview=""
            className="size-12 shrink-0 rounded-lg object-cover ring-1 ring-line"
          />
        ) : (
          <span className="inline-flex size-12 shrink-0 items-center justify-center rounded-lg bg-primary-50 text-primary-700">
            <FileIcon aria-hidden="true" className="size-6" />
          </span>
        )}
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <div className="flex flex-wrap items-baseline justify-between gap-x-3">
            <span className="truncate text-sm font-semibold text-ink">{file.name}</span>
            <span className="text-xs text-ink-muted tabular-nums">{formatFileSize(file.size)}</span>
          </div>
          <span
            aria-live="polite"
            className={cx(
              'inline-flex items-center gap-1 text-xs font-medium',
              status === 'uploaded' ? 'text-success-700' : 'text-ink-muted',
            )}
          >
            {status === 'uploaded' ? <CircleCheck aria-hidden="true" className="size-3.5" /> : null}
            {statusText(status, progress)}
          </span>
          {status === 'uploading' ? (
            <ProgressBar label={`Uploading ${file.name}`} value={progress} hideLabel size="sm" />
          ) : null}
        </div>
        <button
          type="button"
          aria-label={`Remove ${file.name}`}
          onClick={remove}
          disabled={isDisabled}
          className={cx(
            'inline-flex size-9 shrink-0 items-center justify-center rounded-full text-ink-muted hover:bg-neutral-100 hover:text-ink',
            focusRing,
          )}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </li>
    </ul>
  ) : null

  if (variant === 'compact') {
    return (
      <div className={cx('flex flex-col gap-3', className)}>
        {errorBox}
        {selected}
        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          <label
            htmlFor={inputId}
            className={cx(
              'inline-flex min-h-11 items-center gap-2 rounded-full font-semibold text-primary-700',
              iconOnly ? 'min-w-11 justify-center' : 'px-3',
              'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-focus',
              isDisabled ? 'cursor-not-allowed opacity-60' : 'cursor-pointer hover:bg-primary-50',
            )}
          >
            <Paperclip aria-hidden="true" className="size-5" />
            <span className={iconOnly ? 'sr-only' : undefined}>{label}</span>
            {input}
          </label>
          <span
            id={descriptionId}
            className={iconOnly ? 'sr-only' : 'text-xs text-ink-muted max-sm:sr-only'}
          >
            {descriptionText}
          </span>
          {trailing ? <div className="ms-auto flex items-center gap-3">{trailing}</div> : null}
        </div>
      </div>
    )
  }

  return (
    <div className={cx('flex flex-col gap-3', className)}>
      {/* biome-ignore lint/a11y/noStaticElementInteractions: drag and drop is a pointer shortcut; the file input is the keyboard path */}
      <div
        onDragOver={(event) => {
          event.preventDefault()
          if (!isDisabled) setDragging(true)
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        className={cx(
          'flex flex-col items-center gap-2 rounded-2xl border-2 border-dashed px-4 py-5 text-center transition-colors motion-reduce:transition-none',
          dragging ? 'border-primary-500 bg-primary-50' : 'border-neutral-300 bg-neutral-50',
          isDisabled && 'opacity-60',
        )}
      >
        <label
          htmlFor={inputId}
          className={cx(
            'inline-flex min-h-11 items-center gap-2 rounded-full border border-primary-600 bg-surface px-5 py-2 font-semibold text-primary-700',
            'has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-focus',
            isDisabled ? 'cursor-not-allowed' : 'cursor-pointer hover:bg-primary-50',
          )}
        >
          <Upload aria-hidden="true" className="size-5" />
          {label}
          {input}
        </label>
        <p id={descriptionId} className="text-sm text-ink-muted">
          {descriptionText}
        </p>
      </div>
      {errorBox}
      {selected}
    </div>
  )
}

/** A temporary address showing a chosen image, revoked when the image changes or goes. */
function useObjectUrl(file: File | null): string | null {
  const [url, setUrl] = useState<string | null>(null)
  useEffect(() => {
    if (!file || typeof URL.createObjectURL !== 'function') {
      setUrl(null)
      return
    }
    const next = URL.createObjectURL(file)
    setUrl(next)
    return () => URL.revokeObjectURL(next)
  }, [file])
  return url
}
