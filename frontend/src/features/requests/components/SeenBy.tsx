import { useQuery } from '@tanstack/react-query'
import { Eye } from 'lucide-react'
import { formatWhen } from '@/lib/format'
import { roleLabel, seenByQuery } from '../seenBy'

/** 'Seen by Casey (Concierge) · Tue, Nov 24 at 10:02 AM': who on the concierge side opened
 * this request, each person once with their latest opening (issue 27, access transparency).
 * Nothing until someone has. */
export function SeenBy({ requestId, now }: { requestId: number; now: number | Date }) {
  const { data } = useQuery(seenByQuery(requestId))
  if (!data?.length) return null
  return (
    <section
      aria-label="Who opened this request"
      className="flex items-start gap-2 text-sm text-ink-muted"
      data-testid="seen-by"
    >
      <Eye aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <p className="min-w-0">
        Seen by{' '}
        {data.map((seen, index) => (
          <span key={`${seen.name}-${seen.at}`}>
            {index > 0 ? ', ' : null}
            <span className="text-ink">
              {seen.name} ({roleLabel(seen.role)})
            </span>{' '}
            · <time dateTime={seen.at}>{formatWhen(seen.at, { now })}</time>
          </span>
        ))}
      </p>
    </section>
  )
}
