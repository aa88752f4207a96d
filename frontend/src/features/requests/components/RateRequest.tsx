import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { useId, useState } from 'react'
import { Button, FormError, Heading, Paragraph, TextInput } from '@/design-system'
import {
  fetchRequestRating,
  type RatingState,
  rateRequest,
  ratingKeys,
} from '@/lib/satisfaction/api'
import { RatingFaces, SCORE_LABELS, type Score } from '@/lib/satisfaction/RatingFaces'

/** 'How did we do?': a completed request's one-tap rating (1–5) with an optional comment;
 * once rated, the rating given. */
export function RateRequest({ requestId }: { requestId: number }) {
  const queryClient = useQueryClient()
  const state = useQuery({
    queryKey: ratingKeys.request(requestId),
    queryFn: () => fetchRequestRating(requestId),
  })
  const [score, setScore] = useState<Score | null>(null)
  const [comment, setComment] = useState('')
  const headingId = useId()
  const rate = useMutation({
    mutationFn: () => rateRequest(requestId, score ?? 0, comment),
    onSuccess: (data: RatingState) => queryClient.setQueryData(ratingKeys.request(requestId), data),
  })

  const rating = state.data?.rating
  if (rating) {
    const given = rating.score as Score
    return (
      <section
        aria-labelledby={headingId}
        className="flex flex-col gap-3 rounded-2xl border border-line bg-surface p-4 shadow-xs sm:p-5"
      >
        <Heading level={2} id={headingId} className="text-lg sm:text-xl">
          Thanks for your rating
        </Heading>
        <RatingFaces value={given} readOnly label="Your rating" />
        <Paragraph size="sm" tone="muted" role="status">
          You rated this request {given} out of 5 ({SCORE_LABELS[given]}).
          {rating.comment ? ` “${rating.comment}”` : ''}
        </Paragraph>
      </section>
    )
  }
  if (!state.data?.can_rate) return null

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-4 rounded-2xl border border-primary-200 bg-primary-50/60 p-4 sm:p-5"
    >
      <div className="flex flex-col gap-1">
        <Heading level={2} id={headingId} className="text-lg sm:text-xl">
          How did we do?
        </Heading>
        <Paragraph size="sm" tone="muted">
          Your request is complete. Tap a face to rate it.
        </Paragraph>
      </div>
      <form
        noValidate
        className="flex flex-col gap-4"
        onSubmit={(event) => {
          event.preventDefault()
          if (score !== null && !rate.isPending) rate.mutate()
        }}
      >
        <RatingFaces value={score} onChange={setScore} label="How did we do?" />
        {score !== null ? (
          <>
            <TextInput
              type="textarea"
              name="comment"
              label="Anything you'd like to add?"
              rows={2}
              maxLength={1000}
              value={comment}
              onValueChange={(value) => setComment(String(value ?? ''))}
            />
            <FormError message={rate.error?.message} />
            <Button type="submit" loading={rate.isPending} className="self-start">
              Send rating
            </Button>
          </>
        ) : null}
      </form>
    </section>
  )
}
