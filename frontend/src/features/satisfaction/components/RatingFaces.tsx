import { Annoyed, Frown, Laugh, Meh, Smile } from 'lucide-react'
import { useId, useRef } from 'react'
import { cx } from '@/design-system'

export const SCORES = [1, 2, 3, 4, 5] as const
export type Score = (typeof SCORES)[number]

export const SCORE_LABELS: Record<Score, string> = {
  1: 'Very poor',
  2: 'Poor',
  3: 'OK',
  4: 'Good',
  5: 'Excellent',
}
const FACES = { 1: Frown, 2: Annoyed, 3: Meh, 4: Smile, 5: Laugh } as const

/**
 * Five faces, 1 (very poor) to 5 (excellent): native radio buttons, so one tap chooses. From
 * the keyboard the arrow keys only move between the faces (a radio group would choose each
 * face passed on the way, and a rating is recorded as soon as it is chosen); Space chooses.
 * `readOnly` shows a given rating.
 */
export function RatingFaces({
  value,
  onChange,
  label = 'Your rating',
  readOnly = false,
}: {
  value: Score | null
  onChange?: (score: Score) => void
  label?: string
  readOnly?: boolean
}) {
  const name = useId()
  const byArrowKey = useRef(false)
  const choose = (score: Score) => {
    if (readOnly || byArrowKey.current) return
    onChange?.(score)
  }
  return (
    <fieldset className="flex gap-2">
      <legend className="sr-only">{label}</legend>
      {SCORES.map((score) => {
        const Face = FACES[score]
        const checked = value === score
        return (
          <label
            key={score}
            className={cx('relative', readOnly ? 'cursor-default' : 'cursor-pointer')}
          >
            <input
              type="radio"
              name={name}
              value={score}
              checked={checked}
              disabled={readOnly && !checked}
              readOnly={readOnly}
              onKeyDown={(event) => {
                byArrowKey.current = event.key.startsWith('Arrow')
              }}
              onKeyUp={() => {
                byArrowKey.current = false
              }}
              onChange={() => choose(score)}
              className="peer sr-only"
              aria-label={`${score} out of 5: ${SCORE_LABELS[score]}`}
            />
            <span
              aria-hidden="true"
              title={SCORE_LABELS[score]}
              className={cx(
                'flex size-12 items-center justify-center rounded-full border-2 transition-colors motion-reduce:transition-none sm:size-14',
                'peer-focus-visible:outline-2 peer-focus-visible:outline-offset-2 peer-focus-visible:outline-focus',
                checked
                  ? 'border-primary-600 bg-primary-600 text-white'
                  : 'border-line bg-surface text-ink-muted',
                !readOnly && !checked && 'hover:border-primary-300 hover:text-primary-700',
              )}
            >
              <Face className="size-6 sm:size-7" />
            </span>
          </label>
        )
      })}
    </fieldset>
  )
}
