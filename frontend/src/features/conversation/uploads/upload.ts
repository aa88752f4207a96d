/**
 * The two-step single-file upload (spec §7 'Uploads'): ask the API for a presigned address,
 * then send the raw file there with XMLHttpRequest so progress events give a percentage.
 */
import { api } from '@/api/client'
import { captureError } from '@/lib/errorReporting'

/** Spec §8: the visible message for a failed upload. */
export function uploadErrorMessage(fileName: string): string {
  return `Error uploading ${fileName}`
}

export interface PresignedUpload {
  presignedUrl: string
  key: string
}

/** POST /api/v1/uploads/presigned_url with the file name (plus request_id for message uploads). */
export async function requestPresignedUrl(
  filename: string,
  requestId?: number | null,
): Promise<PresignedUpload> {
  const upload = requestId == null ? { filename } : { filename, request_id: requestId }
  const { data, error, response } = await api.POST('/api/v1/uploads/presigned_url', {
    body: { upload },
  })
  if (!data) {
    throw new UploadError('presign', `Failed to get an upload address (${response.status})`, {
      status: response.status,
      statusText: response.statusText,
      responseText: JSON.stringify(error ?? null),
      // 503: the server says why it takes no file now (its file storage is down).
      serverMessage: response.status === 503 ? serverErrorText(error) : undefined,
    })
  }
  return { presignedUrl: data.presigned_url, key: data.key }
}

function serverErrorText(body: unknown): string | undefined {
  const text = (body as { error?: unknown } | null | undefined)?.error
  return typeof text === 'string' && text.trim() ? text : undefined
}

export type UploadErrorKind = 'presign' | 'empty-url' | 'http' | 'network' | 'abort'

export class UploadError extends Error {
  readonly kind: UploadErrorKind
  readonly status?: number
  readonly statusText?: string
  readonly responseText?: string
  /** The server's own words for a person, shown instead of 'Error uploading {file name}'. */
  readonly serverMessage?: string

  constructor(
    kind: UploadErrorKind,
    message: string,
    details: {
      status?: number
      statusText?: string
      responseText?: string
      serverMessage?: string
    } = {},
  ) {
    super(message)
    this.name = 'UploadError'
    this.kind = kind
    this.status = details.status
    this.statusText = details.statusText
    this.responseText = details.responseText
    this.serverMessage = details.serverMessage
  }
}

export interface PutFileOptions {
  /** Default 'PUT'. */
  method?: string
  /** Percentage 0–100 as the body goes out. */
  onProgress?: (percent: number) => void
  signal?: AbortSignal
}

/**
 * Sends `file` as the raw body to `url`: content type is the file's type or
 * application/octet-stream, no credentials. Any 2xx resolves; otherwise it rejects with an
 * UploadError of kind 'http', 'network' or 'abort'.
 */
export function putFile(url: string, file: File, options: PutFileOptions = {}): Promise<void> {
  const { method = 'PUT', onProgress, signal } = options
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(new UploadError('abort', `Upload of ${file.name} was aborted`))
      return
    }
    const xhr = new XMLHttpRequest()
    xhr.open(method, url, true)
    xhr.withCredentials = false
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream')
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)))
      }
    }
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress?.(100)
        resolve()
        return
      }
      reject(
        new UploadError('http', `Upload of ${file.name} failed with status ${xhr.status}`, {
          status: xhr.status,
          statusText: xhr.statusText,
          responseText: safeResponseText(xhr),
        }),
      )
    }
    xhr.onerror = () => {
      reject(
        new UploadError(
          'network',
          `Network error uploading ${file.name}: check the connection, the storage CORS settings and that the upload URL is valid (${url})`,
        ),
      )
    }
    xhr.onabort = () => reject(new UploadError('abort', `Upload of ${file.name} was aborted`))
    signal?.addEventListener('abort', () => xhr.abort(), { once: true })
    xhr.send(file)
  })
}

function safeResponseText(xhr: XMLHttpRequest): string {
  try {
    return xhr.responseText
  } catch {
    return ''
  }
}

/** Reports a failed upload to the console and error reporting, per spec §8 (aborts are only
 * logged). */
export function reportUploadError(error: unknown) {
  if (error instanceof UploadError) {
    if (error.kind === 'abort') {
      console.info(error.message)
      return
    }
    const details = {
      status: error.status,
      statusText: error.statusText,
      responseText: error.responseText,
    }
    console.error(error.message, details)
    captureError(error, details)
    return
  }
  console.error('Upload failed', error)
  captureError(error)
}
