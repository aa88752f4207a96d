import { Link as RouterLink } from 'react-router'
import { cx, focusRing } from '@/design-system'
import { StatusBadge } from '@/features/conversation'
import type { SearchResult } from '../api'
import { deskRequestPath } from './QueueList'

const WHERE: Record<SearchResult['match'], string> = {
  request: 'Request and survey answers',
  message: 'Message',
  note: 'Internal note',
}

/** The server's snippet is escaped text with <mark> around the matching words; anything else
 * that looks like a tag is shown as text. */
export function safeSnippet(html: string): string {
  return html.replace(/<(?!\/?mark>)/g, '&lt;')
}

/** Full-text search results, best first, each with its best match highlighted. */
export function SearchResults({ results, query }: { results: SearchResult[]; query: string }) {
  return (
    <ol aria-label={`Search results for ${query}`} className="flex flex-col gap-3">
      {results.map((result) => (
        <li key={result.id} data-request-id={result.id}>
          <RouterLink
            to={deskRequestPath(result.id)}
            className={cx(
              'flex flex-col gap-2 rounded-2xl border border-line bg-surface p-4 shadow-xs transition-colors hover:border-primary-300 motion-reduce:transition-none',
              focusRing,
            )}
          >
            <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <span className="font-semibold break-words text-ink">{result.name}</span>
              <span className="text-xs text-ink-muted tabular-nums">#{result.id}</span>
              <StatusBadge status={result.status} />
            </span>
            <span className="flex flex-wrap gap-x-3 gap-y-1 text-sm text-ink-muted">
              <span className="font-medium text-ink">{result.employee.full_name}</span>
              {result.company ? <span>{result.company.name}</span> : null}
              <span>{WHERE[result.match]}</span>
            </span>
            <span
              data-snippet
              className="text-sm break-words text-ink [&_mark]:rounded-sm [&_mark]:bg-accent-100 [&_mark]:px-0.5 [&_mark]:font-semibold [&_mark]:text-ink"
              // biome-ignore lint/security/noDangerouslySetInnerHtml: escaped by the server, only <mark> kept (safeSnippet)
              dangerouslySetInnerHTML={{ __html: safeSnippet(result.snippet_html) }}
            />
          </RouterLink>
        </li>
      ))}
    </ol>
  )
}
