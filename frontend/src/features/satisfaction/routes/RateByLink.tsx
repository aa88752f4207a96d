import { useMutation } from '@tanstack/react-query'
import { useEffect, useRef, useState } from 'react'
import { useParams, useSearchParams } from 'react-router'
import { Button, Heading, Paragraph, Spinner } from '@/design-system'
import { commentByLink, type LinkRating, RatingApiError, rateByLink } from '../api'
import { RatingCommentForm } from '../components/RatingCommentForm'
import { RatingFaces, SCORE_LABELS, type Score } from '../components/RatingFaces'

/** No answer, too many tries, or the server failing: the same tap may go through later. */
function mayPassLater(error: Error): boolean {
  if (!(error instanceof RatingApiError)) return true
  return error.status === 0 || error.status === 429 || error.status >= 500
}

/** The comment form's thanks takes the focus its Send button had: read out, and the keyboard
 * keeps its place. */
function focusOnMount(element: HTMLElement | null) {
  element?.focus()
}

function scoreFrom(raw: string | null): Score | null {
  const n = Number(raw)
  return Number.isInteger(n) && n >= 1 && n <= 5 ? (n as Score) : null
}

/**
 * /rate/{token}?score=N: the completion email's one-tap rating, without signing in. The tap
 * in the email chose the score; this page records it once on load (a link preview that does
 * not run the page records nothing), then offers an optional comment. When the request was
 * already rated (in the app, or by an earlier tap) it thanks with the score on record, which
 * the link leaves as it was.
 */
export default function RateByLink() {
  const { token = '' } = useParams()
  const [params] = useSearchParams()
  const [chosen, setChosen] = useState<Score | null>(() => scoreFrom(params.get('score')))
  const [commented, setCommented] = useState(false)
  const started = useRef<string | null>(null)
  const rate = useMutation<LinkRating, Error, Score>({
    mutationFn: (score) => rateByLink(token, score),
  })
  const addComment = useMutation({
    mutationFn: (comment: string) => commentByLink(token, rate.data?.comment_key ?? '', comment),
    onSuccess: () => setCommented(true),
  })

  useEffect(() => {
    // Once per token and score, even when StrictMode runs the effect twice.
    const key = `${token}:${chosen}`
    if (chosen === null || started.current === key) return
    started.current = key
    rate.mutate(chosen)
  }, [token, chosen, rate])

  if (chosen === null) {
    return (
      <div className="flex flex-col gap-6">
        <Heading level={1} className="text-2xl">
          How did we do?
        </Heading>
        <Paragraph tone="muted">Tap a face to rate your completed request.</Paragraph>
        <RatingFaces value={null} onChange={setChosen} label="How did we do?" />
      </div>
    )
  }
  if (rate.isPending || rate.isIdle) {
    return (
      <div className="flex items-center gap-3" role="status">
        <Spinner />
        <span>Saving your rating…</span>
      </div>
    )
  }
  if (rate.isError) {
    return (
      <div className="flex flex-col gap-6">
        <Heading level={1} className="text-2xl">
          We couldn't record this rating
        </Heading>
        <Paragraph role="alert">{rate.error.message}</Paragraph>
        {mayPassLater(rate.error) ? (
          <Button fullWidth onClick={() => rate.mutate(chosen)}>
            Try again
          </Button>
        ) : null}
        <Button to="/sign-in" variant="secondary" fullWidth>
          Sign in to see your requests
        </Button>
      </div>
    )
  }
  const score = rate.data.rating.score as Score
  if (rate.data.already_rated) {
    return (
      <div className="flex flex-col gap-6">
        <Heading level={1} className="text-2xl">
          Thank you, we already have your rating!
        </Heading>
        <RatingFaces value={score} readOnly label="Your rating" />
        <Paragraph role="status">
          You rated this request {score} out of 5 ({SCORE_LABELS[score]}). Your rating is kept as it
          is.
        </Paragraph>
        <Button to="/requests" variant="secondary" fullWidth>
          See your requests
        </Button>
      </div>
    )
  }
  return (
    <div className="flex flex-col gap-6">
      <Heading level={1} className="text-2xl">
        Thank you for your rating!
      </Heading>
      <RatingFaces value={score} readOnly label="Your rating" />
      <Paragraph role="status">
        You rated your request {score} out of 5 ({SCORE_LABELS[score]}).
      </Paragraph>
      {commented ? (
        <Paragraph ref={focusOnMount} tabIndex={-1} tone="muted" className="outline-none">
          Thanks, we've added your comment.
        </Paragraph>
      ) : (
        <RatingCommentForm
          onSend={(text) => addComment.mutate(text)}
          sending={addComment.isPending}
          error={addComment.error?.message}
        />
      )}
    </div>
  )
}
