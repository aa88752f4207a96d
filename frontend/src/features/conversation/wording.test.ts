import { describe, expect, it } from 'vitest'
import type { RequestStatus } from '@/api/enums'
import { makeRequest } from '@/test/requestFixtures'
import { type RequestMessage, withDefaultStatus } from './api'
import { buildThread, REQUEST_RECEIVED_TEXT, SYNTHETIC_SOURCE_NAME } from './thread'
import {
  attachmentPath,
  inProgressHeading,
  inQueueHeading,
  invalidAttachmentTypeMessage,
  messageUploadErrorMessage,
  requestedAgo,
  unreadSuffix,
} from './wording'

describe('request wording (pure)', () => {
  it("unread replies: a navigation item's name says its count in words, 'Requests, 2 unread'", () => {
    expect(`Requests${unreadSuffix(2)}`).toBe('Requests, 2 unread')
    expect(`Requests${unreadSuffix(1)}`).toBe('Requests, 1 unread')
    expect(`Requests${unreadSuffix(0)}`).toBe('Requests')
  })

  it("§2 Requests: 'n request(s) in progress' wording", () => {
    expect(inProgressHeading(1)).toBe('1 request in progress')
    expect(inProgressHeading(2)).toBe('2 requests in progress')
  })

  it("§2 Requests: 'n request(s) is/are in queue' wording", () => {
    expect(inQueueHeading(1)).toBe('1 request is in queue')
    expect(inQueueHeading(3)).toBe('3 requests are in queue')
  })

  it("§2 Request: relative requested time ('Requested 5 minutes ago')", () => {
    const now = Date.parse('2026-01-10T12:00:00Z')
    expect(requestedAgo('2026-01-10T11:55:00Z', now)).toBe('Requested 5 minutes ago')
    expect(requestedAgo('2026-01-10T11:59:30Z', now)).toBe('Requested just now')
    expect(requestedAgo('2026-01-09T12:00:00Z', now)).toBe('Requested 1 day ago')
  })

  it('§5 Message attachments: the invalid type message names the file', () => {
    expect(invalidAttachmentTypeMessage('notes.txt')).toBe(
      "'notes.txt' has an invalid file type. Only images or PDFs are allowed.",
    )
  })

  it('§8 Message file upload error text', () => {
    expect(messageUploadErrorMessage('Error uploading lease.pdf')).toBe(
      'There was an error uploading your file: Error uploading lease.pdf. We have been notified of the error, but you are welcome to try again.',
    )
  })

  it('§2 Attachment: links go to /attachments/{encoded key}', () => {
    expect(attachmentPath('uploads/7/my file.pdf')).toBe('/attachments/uploads%2F7%2Fmy%20file.pdf')
  })

  it('§4 Request status: list fetches default a missing status to the matching one', () => {
    const [a, b] = withDefaultStatus(
      // The first as a server that leaves the status out would send it.
      [makeRequest({ status: '' as RequestStatus }), makeRequest({ status: 'in_progress' })],
      'completed',
    )
    expect(a.status).toBe('closed')
    expect(b.status).toBe('in_progress')
  })
})

describe('buildThread (pure)', () => {
  it('§4 Request thread: sorted ascending by external_created_at', () => {
    const request = makeRequest({
      messages: [
        msg(3, '2026-01-10T12:30:00Z'),
        msg(1, '2026-01-10T12:10:00Z'),
        msg(2, '2026-01-10T12:20:00Z'),
      ],
    })
    expect(buildThread(request).map((e) => e.id)).toEqual(['1', '2', '3'])
  })

  it('§4 Request thread: with details, a synthetic first message repeats them', () => {
    const request = makeRequest({
      details: 'Dog walker\nTuesdays',
      issued_at: '2026-01-10T12:00:00Z',
      messages: [msg(1, '2026-01-10T11:00:00Z')],
    })
    const [first, second] = buildThread(request)
    expect(first).toMatchObject({
      kind: 'received',
      fromUser: false,
      sourceName: SYNTHETIC_SOURCE_NAME,
      details: 'Dog walker\nTuesdays',
    })
    expect(second.id).toBe('1')
    expect(REQUEST_RECEIVED_TEXT).toBe(
      "We've received your request and a concierge will be in touch soon. Here's what you told us:",
    )
  })

  it('§4 Request thread: no details and no messages gives an empty thread', () => {
    expect(buildThread(makeRequest({ details: '  ' }))).toEqual([])
  })
})

function msg(id: number, at: string): RequestMessage {
  return {
    id,
    body_html: `m${id}`,
    source: 'user',
    source_name: 'Jane Doe',
    external_created_at: at,
    reopened_request: false,
    by_email: false,
    attachment_keys: [],
    attachments: [],
  }
}
