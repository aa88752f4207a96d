import { useState } from 'react'
import { Button, cx, FormError, TextInput } from '@/design-system'

export interface RatingCommentFormProps {
  /** Sends the comment (never empty: the form does not send blank text). */
  onSend: (comment: string) => void
  sending: boolean
  error?: string | null
  /** The request page's card (a smaller box and button) rather than a page of its own. */
  compact?: boolean
}

/** 'Anything you'd like to add?': the one optional comment after a rating, in the app or by
 * the email's link. */
export function RatingCommentForm({
  onSend,
  sending,
  error,
  compact = false,
}: RatingCommentFormProps) {
  const [comment, setComment] = useState('')
  return (
    <form
      noValidate
      className={cx('flex flex-col', compact ? 'gap-3' : 'gap-4')}
      onSubmit={(event) => {
        event.preventDefault()
        if (comment.trim() && !sending) onSend(comment)
      }}
    >
      <TextInput
        type="textarea"
        name="comment"
        label="Anything you'd like to add?"
        rows={compact ? 2 : 3}
        maxLength={1000}
        value={comment}
        onValueChange={(value) => setComment(String(value ?? ''))}
      />
      <FormError message={error} />
      <Button
        type="submit"
        variant="secondary"
        size={compact ? 'sm' : 'md'}
        loading={sending}
        fullWidth={!compact}
        className={compact ? 'self-start' : undefined}
      >
        Send comment
      </Button>
    </form>
  )
}
