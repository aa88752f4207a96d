import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { LoadFailed } from './LoadFailed'

describe('LoadFailed (a page or list that failed to load, spec §8 error states)', () => {
  it('announces what failed under a heading of the given level and tries again', async () => {
    const user = userEvent.setup()
    const onRetry = vi.fn()
    render(
      <LoadFailed
        title="We couldn’t load this request"
        message="Service unavailable"
        headingLevel={1}
        onRetry={onRetry}
      />,
    )
    const alert = screen.getByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load this request')
    expect(alert).toHaveTextContent('Service unavailable')
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(
      'We couldn’t load this request',
    )
    await user.click(screen.getByRole('button', { name: 'Try again' }))
    expect(onRetry).toHaveBeenCalledOnce()
  })

  it('is a level-2 heading by default, with the picture it is given', () => {
    render(
      <LoadFailed
        title="We couldn't load this offering"
        illustration={<img alt="" src="/penny.svg" />}
        onRetry={() => {}}
      />,
    )
    expect(screen.getByRole('heading', { level: 2 })).toBeInTheDocument()
    expect(document.querySelector('img[src="/penny.svg"]')).toBeInTheDocument()
  })
})
