/**
 * The request thread (spec §4 'Request thread'), as both the employee and the concierge desk
 * show it: the request's details first, then the messages oldest first (ties keep the server's
 * order), each with its attachments.
 */
import type { MessageSource } from '@/api/enums'
import type { MessageAttachment, RequestItem, RequestMessage } from './api'
import { REQUEST_RECEIVED_TEXT } from './wording'

/** What a thread is built from: the employee's request and the desk's request both carry it. */
export type ThreadSource = Pick<RequestItem, 'details' | 'issued_at' | 'created_at' | 'messages'>

/** The concierge side's source (spec §3 Message). */
export const CONCIERGE_SOURCE: MessageSource = 'life_concierge'
export const USER_SOURCE: MessageSource = 'user'
/** Who the synthetic first message is from. */
export const SYNTHETIC_SOURCE_NAME = 'Your concierge team'

export type ThreadEntry =
  | {
      kind: 'message'
      id: string
      fromUser: boolean
      sourceName: string
      createdAt: string
      /** Sanitised by the server (only <a href> and <br>). */
      bodyHtml: string
      attachments: MessageAttachment[]
      /** The employee sent it to a Completed request, which reopened it. */
      reopenedRequest: boolean
      /** The employee wrote it by replying to a notification email. */
      byEmail: boolean
    }
  | {
      kind: 'received'
      id: string
      fromUser: false
      sourceName: string
      createdAt: string
      details: string
    }

export function time(iso: string): number {
  const t = Date.parse(iso)
  return Number.isFinite(t) ? t : 0
}

/** Attachments with metadata, plus bare keys the server sent without it. */
function attachmentsOf(message: RequestMessage): MessageAttachment[] {
  const known = message.attachments ?? []
  const seen = new Set(known.map((a) => a.key))
  const bare = (message.attachment_keys ?? [])
    .filter((key) => !seen.has(key))
    .map((key) => ({
      key,
      filename: key.split('/').pop() || key,
      content_type: '',
      size: null,
    }))
  return [...known, ...bare]
}

/**
 * The thread's entries. `startsHere` is false while older messages are still to be loaded:
 * the request's details come first in the thread, so they wait until its start is loaded.
 */
export function buildThread(request: ThreadSource, { startsHere = true } = {}): ThreadEntry[] {
  const messages = [...(request.messages ?? [])]
    .map((message, index) => ({ message, index }))
    .sort(
      (a, b) =>
        time(a.message.external_created_at) - time(b.message.external_created_at) ||
        a.index - b.index,
    )
    .map(
      ({ message }): ThreadEntry => ({
        kind: 'message',
        id: String(message.id),
        fromUser: message.source === USER_SOURCE,
        sourceName: message.source_name,
        createdAt: message.external_created_at,
        bodyHtml: message.body_html,
        attachments: attachmentsOf(message),
        reopenedRequest: Boolean(message.reopened_request),
        byEmail: Boolean(message.by_email),
      }),
    )
  const details = request.details?.trim()
  if (!details || !startsHere) return messages
  return [
    {
      kind: 'received',
      id: 'request-received',
      fromUser: false,
      sourceName: SYNTHETIC_SOURCE_NAME,
      createdAt: request.issued_at || request.created_at,
      details,
    },
    ...messages,
  ]
}

export { REQUEST_RECEIVED_TEXT }

/** When the concierge side last wrote, if it has. */
export function lastReplyAt(entries: readonly ThreadEntry[]): string | undefined {
  return entries.findLast((entry) => entry.kind === 'message' && !entry.fromUser)?.createdAt
}
