import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { CategoryIcon, categoryIconName } from './CategoryIcon'

describe('CategoryIcon', () => {
  it.each([
    'car',
    'family',
    'finances',
    'home',
    'home_moving',
    'medical',
    'pet',
    'travel',
    'wildcard',
  ])('§9 category icons: %s maps to its own icon', (name) => {
    expect(categoryIconName(name)).toBe(name)
    const { container } = render(<CategoryIcon name={name} />)
    const svg = container.querySelector('svg')
    expect(svg).toHaveAttribute('data-category-icon', name)
    expect(svg).toHaveAttribute('aria-hidden', 'true')
  })

  it('§9 category icons: "home / moving" and "medical / employer benefits" spellings are understood', () => {
    expect(categoryIconName('Home / Moving')).toBe('home_moving')
    expect(categoryIconName('home-moving')).toBe('home_moving')
    expect(categoryIconName('employer benefits')).toBe('medical')
  })

  it('§9 category icons: unknown or missing names fall back to wildcard', () => {
    expect(categoryIconName('spaceships')).toBe('wildcard')
    expect(categoryIconName(undefined)).toBe('wildcard')
    expect(categoryIconName('')).toBe('wildcard')
  })

  it('§9 category icons: distinct icons for distinct categories', () => {
    const shapes = new Set(
      [
        'car',
        'family',
        'finances',
        'home',
        'home_moving',
        'medical',
        'pet',
        'travel',
        'wildcard',
      ].map((name) => {
        const { container, unmount } = render(<CategoryIcon name={name} />)
        const html = container.querySelector('svg')?.innerHTML ?? ''
        unmount()
        return html
      }),
    )
    expect(shapes.size).toBe(9)
  })

  it('§9 category icons: with a label it is a named image', () => {
    render(<CategoryIcon name="pet" label="Pet" />)
    expect(screen.getByRole('img', { name: 'Pet' })).toBeInTheDocument()
  })
})
