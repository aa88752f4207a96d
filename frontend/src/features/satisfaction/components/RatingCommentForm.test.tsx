import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { RatingCommentForm } from './RatingCommentForm'

describe('RatingCommentForm (issue 12 CSAT: the optional comment after a rating)', () => {
  it('sends what was typed; blank text sends nothing', async () => {
    const user = userEvent.setup()
    const onSend = vi.fn()
    render(<RatingCommentForm onSend={onSend} sending={false} />)
    const box = screen.getByRole('textbox', { name: /Anything you'd like to add/ })
    await user.type(box, '   ')
    await user.click(screen.getByRole('button', { name: 'Send comment' }))
    expect(onSend).not.toHaveBeenCalled()
    await user.clear(box)
    await user.type(box, 'Quick and friendly')
    await user.click(screen.getByRole('button', { name: 'Send comment' }))
    expect(onSend).toHaveBeenCalledExactlyOnceWith('Quick and friendly')
  })

  it('shows why a send failed, and sends nothing more while one is on its way', async () => {
    const user = userEvent.setup()
    const onSend = vi.fn()
    render(<RatingCommentForm onSend={onSend} sending error="Comment is too long" compact />)
    expect(screen.getByRole('alert')).toHaveTextContent('Comment is too long')
    await user.type(screen.getByRole('textbox'), 'Again{Enter}')
    expect(onSend).not.toHaveBeenCalled()
  })
})
