import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useLayoutEffect } from 'react'
import { FormError, Heading, Paragraph } from '@/design-system'
import {
  commentOnRating,
  fetchRequestRating,
  RatingCommentForm,
  RatingFaces,
  type RatingState,
  rateRequest,
  ratingKeys,
  SCORE_LABELS,
  type Score,
} from '@/features/satisfaction'

const box = 'flex flex-col gap-3 rounded-2xl border p-4 sm:p-5'

/** 'How did we do?': a completed request's one-tap rating (1–5): the tap records it; an
 * optional comment can follow, once. `onShown` is told when the card appears or changes. */
export function RateRequest({ requestId, onShown }: { requestId: number; onShown?: () => void }) {
  const queryClient = useQueryClient()
  const state = useQuery({
    queryKey: ratingKeys.request(requestId),
    queryFn: () => fetchRequestRating(requestId),
  })
  const headingId = useId()
  const store = (data: RatingState) => queryClient.setQueryData(ratingKeys.request(requestId), data)
  const rate = useMutation({
    mutationFn: (score: Score) => rateRequest(requestId, score, ''),
    onSuccess: store,
  })
  const addComment = useMutation({
    mutationFn: (comment: string) => commentOnRating(requestId, comment),
    onSuccess: store,
  })

  const rating = state.data?.rating
  const shown = rating ? `rated-${Boolean(rating.comment)}` : state.data?.can_rate ? 'rate' : null
  useLayoutEffect(() => {
    if (shown) onShown?.()
  }, [shown, onShown])

  if (rating) {
    const given = rating.score as Score
    return (
      <section aria-labelledby={headingId} className={`${box} border-line bg-surface shadow-xs`}>
        <Heading level={2} id={headingId} className="text-lg sm:text-xl">
          Thanks for your rating
        </Heading>
        <RatingFaces value={given} readOnly label="Your rating" />
        <Paragraph size="sm" tone="muted" role="status">
          You rated this request {given} out of 5 ({SCORE_LABELS[given]}).
          {rating.comment ? ` “${rating.comment}”` : ''}
        </Paragraph>
        {rating.comment ? null : (
          <RatingCommentForm
            onSend={(text) => addComment.mutate(text)}
            sending={addComment.isPending}
            error={addComment.error?.message}
            compact
          />
        )}
      </section>
    )
  }
  if (!state.data?.can_rate) return null

  return (
    <section aria-labelledby={headingId} className={`${box} border-primary-200 bg-primary-50/60`}>
      <div className="flex flex-col gap-1">
        <Heading level={2} id={headingId} className="text-lg sm:text-xl">
          How did we do?
        </Heading>
        <Paragraph size="sm" tone="muted">
          Your request is complete. Tap a face to rate it.
        </Paragraph>
      </div>
      <RatingFaces
        value={rate.isPending ? (rate.variables ?? null) : null}
        onChange={(score) => {
          if (!rate.isPending) rate.mutate(score)
        }}
        label="How did we do?"
      />
      <FormError message={rate.error?.message} />
    </section>
  )
}
