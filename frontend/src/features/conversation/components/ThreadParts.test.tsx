import { screen, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { makeMessage } from '@/test/requestFixtures'
import { buildThread } from '../thread'
import { type BubbleTone, MessageList, ThreadMessage } from './ThreadParts'

/** The design system's colours the chips use, by utility name (src/styles/tokens.css). */
const COLOURS: Record<string, string> = {
  white: '#ffffff',
  surface: '#ffffff',
  'primary-50': '#effaf8',
  'primary-100': '#d6f1ec',
  'primary-600': '#1f766d',
  'primary-700': '#1a5f59',
  'primary-800': '#174c48',
  'ink-muted': '#5c5650',
  ink: '#1f1c1a',
}

function luminance(hex: string): number {
  const [r, g, b] = [1, 3, 5].map((i) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

function contrast(a: string, b: string): number {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x)
  return (light + 0.05) / (dark + 0.05)
}

/** The colour a utility of `prefix` ('text', 'bg') sets on `element` itself, without states. */
function ownColour(element: Element, prefix: 'text' | 'bg'): string | undefined {
  for (const name of element.classList) {
    const match = name.match(new RegExp(`^${prefix}-(.+)$`))
    if (match && COLOURS[match[1]]) return COLOURS[match[1]]
  }
  return undefined
}

/** Link colours an ancestor forces on every link inside it (`[&_a]:text-white`). */
function linkOverrides(element: Element, upTo: Element): string[] {
  const found: string[] = []
  for (let node = element.parentElement; node && node !== upTo.parentElement; ) {
    found.push(...[...node.classList].filter((name) => name.startsWith('[&_a]:text-')))
    node = node.parentElement
  }
  return found
}

const pdf = { key: 'u/1/lease.pdf', filename: 'lease.pdf', content_type: 'application/pdf' }
const notes = { key: 'u/1/notes.txt', filename: 'notes.txt', content_type: 'text/plain' }

function renderChips(tone: BubbleTone) {
  const [entry] = buildThread({
    details: '',
    issued_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
    messages: [
      makeMessage({
        id: 1,
        source: tone === 'other' ? 'life_concierge' : 'user',
        body_html: 'See <a href="https://example.com/lease">the lease</a>',
        attachments: [
          { ...pdf, size: 1536 },
          { ...notes, size: 12 },
        ],
      }),
    ],
  })
  renderWithProviders(
    <MessageList>
      <ThreadMessage entry={entry} who="You" from="user" tone={tone} />
    </MessageList>,
  )
  return screen.getByRole('article', { name: 'Message from You' })
}

describe('§7 request thread: file chips read on every bubble', () => {
  it.each<BubbleTone>(['own', 'tinted', 'other'])(
    "the %s bubble's PDF and file chips: name, icons and size at 4.5:1 or more on the chip",
    (tone) => {
      const bubble = renderChips(tone)
      const chips = [
        within(bubble).getByRole('link', { name: /lease\.pdf/ }),
        within(bubble).getByRole('button', { name: /notes\.txt/ }),
      ]
      for (const chip of chips) {
        // Nothing around the chip repaints its name and icons (the own bubble's white links).
        expect(linkOverrides(chip, bubble)).toEqual([])
        const text = ownColour(chip, 'text')
        const background = ownColour(chip, 'bg')
        expect(text, chip.className).toBeDefined()
        expect(background, chip.className).toBeDefined()
        expect(text).not.toBe(background)
        expect(contrast(text as string, background as string)).toBeGreaterThanOrEqual(4.5)
        const size = within(chip).getByText(/KB|Bytes/)
        const sizeColour = ownColour(size, 'text') ?? text
        expect(contrast(sizeColour as string, background as string)).toBeGreaterThanOrEqual(4.5)
      }
    },
  )

  it("§7 request thread: the employee's own file chip reads on its bubble, and links in the text stay white", () => {
    const bubble = renderChips('own')
    const chip = within(bubble).getByRole('link', { name: /lease\.pdf/ })
    expect(ownColour(chip, 'bg')).toBe(COLOURS.white)
    expect(ownColour(chip, 'text')).toBe(COLOURS['primary-800'])
    const written = within(bubble).getByRole('link', { name: 'the lease' })
    expect(written.parentElement?.className).toContain('[&_a]:text-white')
    expect(written.parentElement?.className).toContain('[&_a]:underline')
  })
})
