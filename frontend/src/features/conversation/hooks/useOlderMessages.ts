/**
 * A paged thread (the employee's and the desk's): the request carries the newest page of
 * messages and an `older_cursor`; earlier pages are fetched on demand and kept in front of it.
 * The newest page may be refetched at any time (live updates, a sent message): once older
 * pages are loaded, messages that slide out of the newest page are kept, so the thread stays
 * whole. Messages are merged by id, oldest first.
 */
import { useMutation } from '@tanstack/react-query'
import { useMemo, useState } from 'react'
import type { RequestMessage, ThreadPage } from '../api'

/** What a request brings: its newest page and the cursor of the page before it. */
export interface NewestPage {
  id: number
  messages: RequestMessage[]
  older_cursor?: string | null
}

export interface OlderMessages {
  /** Every loaded message, oldest first. */
  messages: RequestMessage[]
  hasOlder: boolean
  /** True once an older page has been loaded (the thread no longer starts on screen). */
  loadedAny: boolean
  loading: boolean
  error: string | null
  loadOlder: () => void
}

interface Loaded {
  requestId: number
  messages: RequestMessage[]
  cursor: string | null
}

/** The older pages before the newest one; they start again when the request changes. */
export function useOlderMessages(
  latest: NewestPage,
  fetchPage: (requestId: number, before: string) => Promise<ThreadPage>,
): OlderMessages {
  const [stored, setStored] = useState<Loaded | null>(null)
  const [shownNewest, setShownNewest] = useState(latest.messages)
  if (shownNewest !== latest.messages) {
    setShownNewest(latest.messages)
    if (stored?.requestId === latest.id) {
      setStored({ ...stored, messages: withoutRepeats([...stored.messages, ...shownNewest]) })
    }
  }
  const loaded = stored?.requestId === latest.id ? stored : null
  const cursor = loaded ? loaded.cursor : (latest.older_cursor ?? null)

  const load = useMutation<ThreadPage, Error, { requestId: number; before: string }>({
    mutationFn: ({ requestId, before }) => fetchPage(requestId, before),
    onSuccess: (page, { requestId }) =>
      setStored((previous) => ({
        requestId,
        messages: [
          ...page.messages,
          ...(previous?.requestId === requestId ? previous.messages : []),
        ],
        cursor: page.older_cursor,
      })),
  })

  const messages = useMemo(
    () => withoutRepeats([...(loaded?.messages ?? []), ...(latest.messages ?? [])]),
    [loaded, latest.messages],
  )

  return {
    messages,
    hasOlder: cursor !== null,
    loadedAny: loaded !== null,
    loading: load.isPending,
    error: load.error ? load.error.message : null,
    loadOlder: () => {
      if (cursor !== null && !load.isPending) load.mutate({ requestId: latest.id, before: cursor })
    },
  }
}

/** Each message once (its last copy: the newest page's is the freshest), in the given order. */
function withoutRepeats(messages: RequestMessage[]): RequestMessage[] {
  const last = new Map(messages.map((message, index) => [message.id, index]))
  return messages.filter((message, index) => last.get(message.id) === index)
}
