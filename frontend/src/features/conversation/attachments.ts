/**
 * Opening a thread's attachments in place: images as thumbnails and in the image viewer, PDFs
 * in the browser's own viewer (a new tab), anything else as a download that keeps the thread
 * on screen. Addresses come from GET /api/v1/uploads/expiring_url, which checks on the server
 * that the signed-in person may see the file; `inline` asks for an address the browser shows
 * rather than saves (images and PDFs only: the server serves anything else as a download).
 */
import { queryOptions } from '@tanstack/react-query'
import { api, errorMessage } from '@/api/client'
import type { MessageAttachment } from './api'
import { attachmentPath } from './wording'

export const EXPIRING_URL_FALLBACK = 'The link may have expired or the file is no longer available.'

/** The server's addresses live 5 minutes; a cached one is used for at most 4. */
const ADDRESS_FRESH_MS = 4 * 60_000

export async function fetchAttachmentUrl(key: string, inline = false): Promise<string> {
  const { data, error, response } = await api.GET('/api/v1/uploads/expiring_url', {
    params: { query: inline ? { key, inline: true } : { key } },
  })
  if (!response.ok || !data?.expiring_url) {
    // A 404 (gone, or never this person's to see: the server does not say which) in words.
    const notFound = response.status === 404
    throw new Error(
      notFound ? EXPIRING_URL_FALLBACK : errorMessage(error, undefined, EXPIRING_URL_FALLBACK),
    )
  }
  return data.expiring_url
}

/** A short-lived address that shows the file in the browser (thumbnail, viewer). */
export function inlineAttachmentQuery(key: string) {
  return queryOptions({
    queryKey: ['attachments', 'inline', key],
    queryFn: () => fetchAttachmentUrl(key, true),
    staleTime: ADDRESS_FRESH_MS,
    gcTime: ADDRESS_FRESH_MS,
    refetchOnWindowFocus: false,
    retry: false,
  })
}

export type AttachmentKind = 'image' | 'pdf' | 'file'

export function attachmentKind(attachment: Pick<MessageAttachment, 'content_type' | 'filename'>) {
  const type = attachment.content_type.toLowerCase()
  if (type.startsWith('image/') && type !== 'image/svg+xml') return 'image' as const
  if (type === 'application/pdf') return 'pdf' as const
  return 'file' as const
}

/** The Attachment route showing a PDF in the browser's viewer (opened in a new tab). */
export function attachmentViewPath(key: string): string {
  return `${attachmentPath(key)}?view=inline`
}

/**
 * Saves the file without leaving the page: the download address answers with
 * `Content-Disposition: attachment`, so the browser keeps the current document.
 */
export async function downloadAttachment(key: string): Promise<void> {
  const url = await fetchAttachmentUrl(key)
  window.location.assign(url)
}
