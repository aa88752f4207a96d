import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Skeleton, SkeletonGroup } from './Skeleton'

describe('Skeleton', () => {
  it('§2 requests: a skeleton group announces loading while its blocks stay hidden', () => {
    const { container } = render(
      <SkeletonGroup label="Loading requests">
        <Skeleton className="h-24 w-full" />
        <Skeleton shape="circle" width={40} height={40} />
      </SkeletonGroup>,
    )
    const status = screen.getByRole('status', { name: 'Loading requests' })
    expect(status).toHaveAttribute('aria-busy', 'true')
    const blocks = container.querySelectorAll('[data-skeleton]')
    expect(blocks).toHaveLength(2)
    for (const block of blocks) expect(block).toHaveAttribute('aria-hidden', 'true')
    expect(blocks[1]).toHaveStyle({ width: '40px', height: '40px' })
  })

  it('§2 skeleton: text shape renders the given number of lines, pulsing only when motion is allowed', () => {
    const { container } = render(<Skeleton shape="text" lines={3} />)
    const lines = container.querySelectorAll('[data-skeleton] > span')
    expect(lines).toHaveLength(3)
    expect(lines[0]).toHaveClass('animate-pulse', 'motion-reduce:animate-none')
  })
})
