import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Heading, type HeadingLevel } from './Heading'

describe('Heading', () => {
  it.each([1, 2, 3, 4, 5, 6] as HeadingLevel[])(
    '§2 heading: level %i renders its h element',
    (level) => {
      render(<Heading level={level}>Benefits &amp; Offers</Heading>)
      const heading = screen.getByRole('heading', { level, name: 'Benefits & Offers' })
      expect(heading.tagName).toBe(`H${level}`)
    },
  )

  it('§2 heading: sizes lg and xl change the visual size but not the level', () => {
    const { rerender } = render(
      <Heading level={2} size="xl">
        Welcome
      </Heading>,
    )
    const xl = screen.getByRole('heading', { level: 2 })
    expect(xl.className).toContain('text-3xl')
    rerender(
      <Heading level={2} size="lg">
        Welcome
      </Heading>,
    )
    expect(screen.getByRole('heading', { level: 2 }).className).toContain('text-2xl')
  })
})
