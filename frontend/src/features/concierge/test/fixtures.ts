/** Builders and MSW handlers for the concierge desk's component tests. */
import { HttpResponse, http } from 'msw'
import { makeUser } from '@/test/render'
import { apiUrl } from '@/test/server'
import type { Concierge, DeskRequest, Queue, QueueItem } from '../api'

export const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString()

export const ME = { id: 3, full_name: 'Alex Rivera', email: 'concierge@example.com' }
export const SAM = { id: 4, full_name: 'Sam Lee', email: 'sam@example.com' }
export const CONCIERGES: Concierge[] = [ME, SAM]

/** The signed-in concierge, as /users/current answers. */
export function makeConcierge() {
  return makeUser({
    email: ME.email,
    first_name: 'Alex',
    last_name: 'Rivera',
    full_name: ME.full_name,
    initials: 'AR',
    is_concierge: true,
    companies: [],
  })
}

export function makeQueueItem(overrides: Partial<QueueItem> = {}): QueueItem {
  return {
    id: 101,
    name: 'Find a dog walker',
    status: 'open',
    company: { id: 1, name: 'Acme Corp' },
    employee: { full_name: 'Jane Doe', email: 'jane.doe@example.com' },
    survey_category_name: 'Pet',
    survey_category_icon: 'pet',
    issued_at: minutesAgo(90),
    last_message: {
      body_text: 'Any news on the walker?',
      source: 'user',
      source_name: 'Jane Doe',
      created_at: minutesAgo(10),
    },
    waiting_on: 'concierge',
    assignee: null,
    sla: null,
    ...overrides,
  }
}

export function makeQueue(
  requests: QueueItem[],
  counts: Partial<Queue['counts']> = {},
  page: Partial<Pick<Queue, 'counts_capped' | 'next_cursor'>> = {},
): Queue {
  return {
    requests,
    counts: { open: requests.length, in_progress: 0, closed: 0, ...counts },
    count_limit: 1000,
    counts_capped: [],
    next_cursor: null,
    ...page,
  }
}

export function makeDeskRequest(overrides: Partial<DeskRequest> = {}): DeskRequest {
  return {
    id: 101,
    name: 'Find a dog walker',
    status: 'open',
    details: 'Walker for Rex\nWeekdays at noon',
    company: { id: 1, name: 'Acme Corp' },
    employee: {
      id: 50,
      full_name: 'Jane Doe',
      first_name: 'Jane',
      email: 'jane.doe@example.com',
      companies: [{ id: 1, name: 'Acme Corp' }],
      phone: '5551234567',
      preferred_email: 'jane@home.example',
      address: '1 Main St\nSpringfield',
      onboarding: [
        { answer_id: 11, label: 'Pets', value: 'Dog' },
        { answer_id: 12, label: 'Home', value: 'Rent' },
      ],
      request_count: 3,
      date_joined: '2024-03-05T12:00:00Z',
    },
    survey_category_name: 'Pet',
    survey_category_icon: 'pet',
    issued_at: minutesAgo(90),
    created_at: minutesAgo(90),
    age_seconds: 5400,
    last_message_at: minutesAgo(10),
    waiting_on: 'concierge',
    seen_by_employee_at: null,
    assignee: null,
    older_cursor: null,
    messages: [
      {
        id: 1,
        body_html: 'Any news on the walker?',
        source: 'user',
        source_name: 'Jane Doe',
        external_created_at: minutesAgo(10),
        reopened_request: false,
        by_email: false,
        attachment_keys: ['uploads/101/rex.png'],
        attachments: [
          {
            key: 'uploads/101/rex.png',
            filename: 'rex.png',
            content_type: 'image/png',
            size: 2048,
          },
        ],
      },
    ],
    notes: [
      {
        id: 7,
        body: 'Prefers mornings',
        author: { id: SAM.id, full_name: SAM.full_name },
        created_at: minutesAgo(30),
      },
    ],
    survey: {
      id: 601,
      name: 'Pet care',
      answers: [
        { question: 'What kind of pet?', answer: 'Dog', skipped: false, upload_key: null },
        { question: 'Any allergies?', answer: 'Question Skipped', skipped: true, upload_key: null },
        {
          question: 'A photo of your pet',
          answer: 'rex photo.jpg',
          skipped: false,
          upload_key: 'answers/50/rex photo.jpg',
        },
      ],
    },
    viewers: [],
    ...overrides,
  }
}

export function conciergesHandler() {
  return http.get(apiUrl('/api/v1/concierge/concierges'), () =>
    HttpResponse.json({ concierges: CONCIERGES }),
  )
}
