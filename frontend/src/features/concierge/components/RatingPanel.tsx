import { RatingFaces, SCORE_LABELS, type Score } from '@/features/satisfaction'
import type { DeskRequest } from '../api'
import { Panel } from './Panel'

/** The employee's satisfaction rating of the request, once given. */
export function RatingPanel({ rating }: { rating: DeskRequest['rating'] }) {
  if (!rating) return null
  const score = rating.score as Score
  return (
    <Panel
      title="Employee rating"
      subtitle={`${score} out of 5 (${SCORE_LABELS[score]}) · from the ${
        rating.via === 'email' ? 'completion email' : 'request page'
      }`}
    >
      <RatingFaces value={score} readOnly label="Employee rating" />
      {rating.comment ? (
        <blockquote className="border-s-4 border-primary-200 ps-3 text-sm break-words whitespace-pre-line text-ink">
          {rating.comment}
        </blockquote>
      ) : null}
    </Panel>
  )
}
