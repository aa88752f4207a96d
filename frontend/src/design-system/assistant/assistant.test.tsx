import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ASSISTANT_NAME, Assistant } from './Assistant'

describe('Assistant', () => {
  it('ARCH §8 assistant: the character has a name', () => {
    expect(ASSISTANT_NAME).toBe('Penny')
  })

  it('ARCH §8 assistant: decorative by default (hidden from screen readers)', () => {
    const { container } = render(<Assistant />)
    const svg = container.querySelector('svg')
    expect(svg).toHaveAttribute('aria-hidden', 'true')
    expect(screen.queryByRole('img')).not.toBeInTheDocument()
  })

  it('ARCH §8 assistant: with a title it is an image named by that title', () => {
    render(<Assistant title={`${ASSISTANT_NAME}, your concierge assistant`} size="lg" />)
    expect(screen.getByRole('img', { name: 'Penny, your concierge assistant' })).toHaveClass(
      'size-32',
    )
  })

  it('ARCH §8 assistant: sizes sm, md, lg', () => {
    const { container, rerender } = render(<Assistant size="sm" />)
    expect(container.querySelector('svg')).toHaveClass('size-10')
    rerender(<Assistant size="md" waving />)
    expect(container.querySelector('svg')).toHaveClass('size-18')
  })
})
