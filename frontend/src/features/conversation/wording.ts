/** Texts of the request screens (spec §2 'Requests', §4 'Request thread', §5, §8). */
import { relativeTime } from '@/lib/format'

/** '1 request in progress' / '2 requests in progress'. */
export function inProgressHeading(count: number): string {
  return `${count} ${count === 1 ? 'request' : 'requests'} in progress`
}

/** '1 request is in queue' / '3 requests are in queue'. */
export function inQueueHeading(count: number): string {
  return count === 1 ? '1 request is in queue' : `${count} requests are in queue`
}

/** 'To do (n)' / 'Completed (n)'; the tab ids come from the labels without the count. */
export const TODO_TAB_LABEL = 'To do'
export const COMPLETED_TAB_LABEL = 'Completed'

export function tabLabel(label: string, count: number): string {
  return `${label} (${count})`
}

function lowerFirst(text: string): string {
  return text ? text.charAt(0).toLowerCase() + text.slice(1) : text
}

/** The mark of a request whose concierge's reply the employee has not opened yet. */
export const UNREAD_MARK_TEXT = 'New reply'

/**
 * What a navigation item's accessible name says after its label about its unread count:
 * 'Requests' + ', 2 unread'; nothing when there is none.
 */
export function unreadSuffix(count: number): string {
  return count > 0 ? `, ${count} unread` : ''
}

/** 'Requested 5 minutes ago' / 'Requested just now'. */
export function requestedAgo(iso: string, now?: number): string {
  const ago = relativeTime(iso, now)
  return ago ? `Requested ${lowerFirst(ago)}` : ''
}

/** 'Last message 2 hours ago' / 'Last message just now'. */
export function lastMessageAgo(iso: string, now?: number): string {
  const ago = relativeTime(iso, now)
  return ago ? `Last message ${lowerFirst(ago)}` : ''
}

/** The synthetic first message's opening (spec §4 'Request thread'). */
export const REQUEST_RECEIVED_TEXT =
  "We've received your request and a concierge will be in touch soon. Here's what you told us:"

/** Spec §5 'Message attachments'. */
export function invalidAttachmentTypeMessage(fileName: string): string {
  return `'${fileName}' has an invalid file type. Only images or PDFs are allowed.`
}

/** Spec §8 'Message file upload error'. */
export function messageUploadErrorMessage(detail: string): string {
  const cleaned = detail.trim().replace(/[.\s]+$/, '')
  return `There was an error uploading your file: ${cleaned}. We have been notified of the error, but you are welcome to try again.`
}

/** The Attachment route for a file key. */
export function attachmentPath(key: string): string {
  return `/attachments/${encodeURIComponent(key)}`
}
