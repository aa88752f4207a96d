/**
 * One file at a time through the presigned-address upload (spec §4 'File upload (single file)'):
 * Pending → Uploading n% → Uploaded, or a cleared selection and 'Error uploading {file name}'
 * (or the server's reason when it takes no file now: its storage is down, a 503).
 * Starting another file replaces (and aborts) the one before.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import {
  putFile,
  reportUploadError,
  requestPresignedUrl,
  UploadError,
  uploadErrorMessage,
} from './upload'

export type SingleFileUploadStatus = 'idle' | 'pending' | 'uploading' | 'uploaded'

export interface SingleFileUploadState {
  status: SingleFileUploadStatus
  /** 0–100 while uploading; 100 once uploaded. */
  progress: number
  /** The visible error of the last attempt, e.g. 'Error uploading lease.pdf'. */
  error: string | null
  /** The file being (or last successfully) uploaded; null after a failure or reset. */
  file: File | null
  /** The storage key once uploaded (the value to send for an upload answer or attachment). */
  key: string | null
}

export interface StartUploadOptions {
  /** For message attachments: the request the file belongs to. */
  requestId?: number | null
  /** HTTP method for the raw upload. Default 'PUT'. */
  method?: string
}

export interface SingleFileUpload extends SingleFileUploadState {
  /** Uploads `file`; resolves with its key, or null when it failed or was replaced/reset. */
  start: (file: File, options?: StartUploadOptions) => Promise<string | null>
  /** Aborts any upload in flight and returns to idle. */
  reset: () => void
}

const IDLE: SingleFileUploadState = {
  status: 'idle',
  progress: 0,
  error: null,
  file: null,
  key: null,
}

export function useSingleFileUpload(): SingleFileUpload {
  const [state, setState] = useState<SingleFileUploadState>(IDLE)
  const attempt = useRef(0)
  const controller = useRef<AbortController | null>(null)

  const abortCurrent = useCallback(() => {
    controller.current?.abort()
    controller.current = null
  }, [])

  useEffect(() => abortCurrent, [abortCurrent])

  const start = useCallback(
    async (file: File, options: StartUploadOptions = {}): Promise<string | null> => {
      abortCurrent()
      const id = ++attempt.current
      const abort = new AbortController()
      controller.current = abort
      const current = () => attempt.current === id
      setState({ status: 'pending', progress: 0, error: null, file, key: null })
      try {
        const { presignedUrl, key } = await requestPresignedUrl(file.name, options.requestId)
        if (!current()) return null
        if (!presignedUrl) {
          // Spec §5: refused with a console error only.
          console.error(`Upload refused: no upload address was returned for ${file.name}`)
          setState(IDLE)
          return null
        }
        setState((s) => ({ ...s, status: 'uploading', progress: 0 }))
        await putFile(presignedUrl, file, {
          method: options.method,
          signal: abort.signal,
          onProgress: (percent) => {
            if (current()) setState((s) => ({ ...s, progress: percent }))
          },
        })
        if (!current()) return null
        controller.current = null
        setState({ status: 'uploaded', progress: 100, error: null, file, key })
        return key
      } catch (error) {
        reportUploadError(error)
        if (!current() || (error instanceof UploadError && error.kind === 'abort')) return null
        controller.current = null
        const serverMessage = error instanceof UploadError ? error.serverMessage : undefined
        setState({ ...IDLE, error: serverMessage ?? uploadErrorMessage(file.name) })
        return null
      }
    },
    [abortCurrent],
  )

  const reset = useCallback(() => {
    attempt.current++
    abortCurrent()
    setState(IDLE)
  }, [abortCurrent])

  return { ...state, start, reset }
}
