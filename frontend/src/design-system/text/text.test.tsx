import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Overline, Paragraph, Text } from './Text'

describe('Text, Paragraph and Overline', () => {
  it('§2 text: renders inline text at sizes sm, md, lg', () => {
    render(
      <>
        <Text size="sm">small</Text>
        <Text>medium</Text>
        <Text size="lg">large</Text>
      </>,
    )
    expect(screen.getByText('small').tagName).toBe('SPAN')
    expect(screen.getByText('small')).toHaveClass('text-sm')
    expect(screen.getByText('medium')).toHaveClass('text-base')
    expect(screen.getByText('large')).toHaveClass('text-lg')
  })

  it('§2 paragraph: renders a <p> with the chosen size and passes attributes through', () => {
    render(
      <Paragraph size="lg" tone="muted" id="intro">
        Save an estimated 3-4 hours per task.
      </Paragraph>,
    )
    const p = screen.getByText('Save an estimated 3-4 hours per task.')
    expect(p.tagName).toBe('P')
    expect(p).toHaveClass('text-lg', 'text-ink-muted')
    expect(p).toHaveAttribute('id', 'intro')
  })

  it('§2 overline: a small uppercase label', () => {
    render(<Overline>Partner offer</Overline>)
    expect(screen.getByText('Partner offer')).toHaveClass('uppercase', 'text-overline')
  })
})
