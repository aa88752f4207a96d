import { describe, expect, it } from 'vitest'
import tokens from './tokens.css?raw'

// Every source file of the app, as text (tests included: they assert on class names too).
const sources = import.meta.glob<string>(['/src/**/*.{ts,tsx}', '!/src/api/schema.d.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
})

const defined = new Set([...tokens.matchAll(/--color-([a-z0-9-]+)\s*:/g)].map((m) => m[1]))
// The theme's colour families: palettes of shades (`danger-600`) and named colours (`ink-muted`).
const families = [...new Set([...defined].map((name) => name.split('-')[0]))]

// A colour utility naming a colour of one of those families: `border-danger-300`,
// `hover:bg-primary-50`, `ring-warning-300/50`, `text-ink-muted`.
const colourUtility = new RegExp(
  `(?<![\\w-])(?:bg|text|border(?:-[trblxyse])?|ring|ring-offset|outline|fill|stroke|from|via|to|divide|decoration|shadow|accent|caret|placeholder)-((?:${families.join('|')})(?:-[a-z0-9]+)*)(?:/\\d+)?(?![\\w-])`,
  'g',
)

describe('design tokens', () => {
  it('knows the colour families it checks', () => {
    expect(families).toEqual(
      expect.arrayContaining(['primary', 'neutral', 'danger', 'warning', 'ink', 'line']),
    )
  })

  it('every colour class the app uses names a colour the theme defines (Tailwind drops the others without a word)', () => {
    const undefinedColours: string[] = []
    for (const [file, text] of Object.entries(sources)) {
      for (const match of text.matchAll(colourUtility)) {
        if (!defined.has(match[1])) undefinedColours.push(`${file}: ${match[0]}`)
      }
    }
    expect(undefinedColours).toEqual([])
  })
})
