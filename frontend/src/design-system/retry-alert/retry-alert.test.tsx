import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { RetryAlert } from './RetryAlert'

describe('RetryAlert (a failed load or step, spec §8 error states)', () => {
  it('announces what failed and tries again on Retry', async () => {
    const user = userEvent.setup()
    const onRetry = vi.fn()
    render(<RetryAlert message="We couldn't load the categories." onRetry={onRetry} />)
    expect(screen.getByRole('alert')).toHaveTextContent("We couldn't load the categories.")
    await user.click(screen.getByRole('button', { name: 'Retry' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('has no Retry button when there is nothing to try again', () => {
    render(<RetryAlert message="That answer is not allowed." compact id="answer-error" />)
    expect(screen.getByRole('alert')).toHaveAttribute('id', 'answer-error')
    expect(screen.queryByRole('button')).not.toBeInTheDocument()
  })
})
