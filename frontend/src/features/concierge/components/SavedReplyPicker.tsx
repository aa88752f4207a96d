import { useQuery } from '@tanstack/react-query'
import { Search, X } from 'lucide-react'
import { useEffect, useId, useMemo, useRef, useState } from 'react'
import { cx, focusRing, RetryAlert } from '@/design-system'
import { type FilledReply, filledRepliesQuery } from '../api'

/** Every typed word must appear in the title or the text (case-insensitive). */
export function filterReplies(replies: FilledReply[], query: string): FilledReply[] {
  const words = query.toLowerCase().split(/\s+/).filter(Boolean)
  if (!words.length) return replies
  return replies.filter((reply) => {
    const haystack = `${reply.title}\n${reply.text}`.toLowerCase()
    return words.every((word) => haystack.includes(word))
  })
}

/**
 * The saved replies, filled in for this request: type to filter, ↑/↓ to choose, Enter to
 * insert, Escape to close. Opened from the composer with Ctrl + / (⌘ + / on a Mac).
 */
export function SavedReplyPicker({
  requestId,
  onInsert,
  onClose,
}: {
  requestId: number
  onInsert: (text: string) => void
  onClose: () => void
}) {
  const replies = useQuery(filledRepliesQuery(requestId))
  const [query, setQuery] = useState('')
  const [active, setActive] = useState(0)
  const inputRef = useRef<HTMLInputElement>(null)
  const listId = useId()
  const matches = useMemo(() => filterReplies(replies.data ?? [], query), [replies.data, query])
  const current = matches[Math.min(active, matches.length - 1)]
  const failed = replies.isError && !replies.data

  useEffect(() => inputRef.current?.focus(), [])
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new filter starts at the top
  useEffect(() => setActive(0), [query])

  const onKeyDown = (event: React.KeyboardEvent) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault()
      if (!matches.length) return
      const step = event.key === 'ArrowDown' ? 1 : -1
      setActive((i) => (Math.min(i, matches.length - 1) + step + matches.length) % matches.length)
    } else if (event.key === 'Enter') {
      event.preventDefault()
      if (current) onInsert(current.text)
    } else if (event.key === 'Escape') {
      event.preventDefault()
      event.stopPropagation()
      onClose()
    }
  }

  return (
    <section
      aria-label="Saved replies"
      className="flex flex-col gap-2 rounded-xl border border-line-strong/60 bg-surface p-3 shadow-md"
    >
      <div className="flex items-center gap-2">
        <span className="relative flex-1">
          <Search
            aria-hidden="true"
            className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted"
          />
          <input
            ref={inputRef}
            type="search"
            role="combobox"
            aria-label="Filter saved replies"
            aria-expanded="true"
            aria-controls={listId}
            aria-activedescendant={current ? `${listId}-${current.id}` : undefined}
            aria-autocomplete="list"
            placeholder="Type to filter saved replies"
            value={query}
            onChange={(event) => setQuery(event.target.value)}
            onKeyDown={onKeyDown}
            className={cx(
              'h-10 w-full rounded-lg border border-line-strong bg-surface ps-9 pe-3 text-sm text-ink',
              focusRing,
            )}
          />
        </span>
        <button
          type="button"
          onClick={onClose}
          aria-label="Close saved replies"
          className={cx('rounded-full p-2 text-ink-muted hover:text-ink', focusRing)}
        >
          <X aria-hidden="true" className="size-4" />
        </button>
      </div>
      {failed ? (
        <RetryAlert
          compact
          message={replies.error.message}
          onRetry={() => {
            void replies.refetch()
            inputRef.current?.focus()
          }}
        />
      ) : null}
      <div
        id={listId}
        role="listbox"
        tabIndex={-1}
        aria-label="Saved replies"
        className="flex max-h-64 flex-col gap-1 overflow-y-auto"
      >
        {replies.isPending ? (
          <p className="px-2 py-1.5 text-sm text-ink-muted">Loading…</p>
        ) : failed ? null : matches.length === 0 ? (
          <p className="px-2 py-1.5 text-sm text-ink-muted">
            {replies.data?.length ? 'No saved reply matches.' : 'No saved replies yet.'}
          </p>
        ) : (
          matches.map((reply) => {
            const selected = reply === current
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents: the filter box handles the keys
              <div
                key={reply.id}
                tabIndex={-1}
                id={`${listId}-${reply.id}`}
                role="option"
                aria-selected={selected}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => onInsert(reply.text)}
                className={cx(
                  'cursor-pointer rounded-lg px-2 py-1.5',
                  selected ? 'bg-primary-50 ring-1 ring-primary-300' : 'hover:bg-surface-muted',
                )}
              >
                <span className="block text-sm font-semibold text-ink">{reply.title}</span>
                <span className="line-clamp-2 text-xs text-ink-muted">{reply.text}</span>
              </div>
            )
          })
        )}
      </div>
    </section>
  )
}
