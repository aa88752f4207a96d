import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { nextTabIndexForSwipe, tabIdFromLabel, tabScrollDistance } from './swipe'
import { TabPanel, Tabs } from './Tabs'

describe('tabIdFromLabel / nextTabIndexForSwipe (pure)', () => {
  it('§4 tabs: the tab id is the label with non-word characters replaced by underscores', () => {
    expect(tabIdFromLabel('To do (3)')).toBe('To_do__3_')
    expect(tabIdFromLabel('Completed (12)')).toBe('Completed__12_')
    expect(tabIdFromLabel('Home & Moving')).toBe('Home___Moving')
    expect(tabIdFromLabel('plain_word')).toBe('plain_word')
  })

  it('§4 tabs: a swipe of at least 50 px moves forward (swipe left) or back (swipe right)', () => {
    expect(nextTabIndexForSwipe(0, 3, -50)).toBe(1)
    expect(nextTabIndexForSwipe(1, 3, -120)).toBe(2)
    expect(nextTabIndexForSwipe(2, 3, 50)).toBe(1)
    expect(nextTabIndexForSwipe(1, 3, 200)).toBe(0)
  })

  it('§4 tabs: swipes shorter than 50 px keep the current tab', () => {
    expect(nextTabIndexForSwipe(1, 3, -49)).toBe(1)
    expect(nextTabIndexForSwipe(1, 3, 49)).toBe(1)
    expect(nextTabIndexForSwipe(1, 3, 0)).toBe(1)
  })

  it('§4 tabs: bounded by the first and last tab', () => {
    expect(nextTabIndexForSwipe(2, 3, -300)).toBe(2)
    expect(nextTabIndexForSwipe(0, 3, 300)).toBe(0)
    expect(nextTabIndexForSwipe(0, 0, -300)).toBe(0)
  })
})

function Example(props: { onSelectionChange?: (id: string) => void }) {
  return (
    <Tabs aria-label="Requests" onSelectionChange={props.onSelectionChange}>
      <TabPanel label="To do (2)">
        <p>Open requests</p>
      </TabPanel>
      <TabPanel label="Completed (1)">
        <p>Done requests</p>
      </TabPanel>
      <TabPanel label="Archived">
        <p>Archived requests</p>
      </TabPanel>
    </Tabs>
  )
}

function swipe(el: HTMLElement, fromX: number, toX: number, y = 100) {
  fireEvent.touchStart(el, { touches: [{ clientX: fromX, clientY: y }] })
  fireEvent.touchEnd(el, { changedTouches: [{ clientX: toX, clientY: y }] })
}

describe('Tabs', () => {
  it('§2 tabs: a tab list with the first tab selected and its panel shown', () => {
    render(<Example />)
    expect(screen.getByRole('tablist', { name: 'Requests' })).toBeInTheDocument()
    const first = screen.getByRole('tab', { name: 'To do (2)' })
    expect(first).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Open requests')
    expect(screen.queryByText('Done requests')).not.toBeInTheDocument()
  })

  it('§4 tabs: selecting a tab reports its label-derived id and shows its panel', async () => {
    const onSelectionChange = vi.fn()
    render(<Example onSelectionChange={onSelectionChange} />)
    await userEvent.click(screen.getByRole('tab', { name: 'Completed (1)' }))
    expect(onSelectionChange).toHaveBeenLastCalledWith('Completed__1_')
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Done requests')
  })

  it('§2 tabs: keyboard arrows move between tabs', async () => {
    render(<Example />)
    await userEvent.tab()
    expect(screen.getByRole('tab', { name: 'To do (2)' })).toHaveFocus()
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'Completed (1)' })).toHaveAttribute(
      'aria-selected',
      'true',
    )
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Done requests')
  })

  it('§2 tabs: arrows wrap at the ends, Home and End go to the first and last tab', async () => {
    render(<Example />)
    await userEvent.tab()
    await userEvent.keyboard('{ArrowLeft}')
    expect(screen.getByRole('tab', { name: 'Archived' })).toHaveFocus()
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Archived requests')
    await userEvent.keyboard('{ArrowRight}')
    expect(screen.getByRole('tab', { name: 'To do (2)' })).toHaveFocus()
    await userEvent.keyboard('{End}')
    expect(screen.getByRole('tab', { name: 'Archived' })).toHaveAttribute('aria-selected', 'true')
    await userEvent.keyboard('{Home}')
    expect(screen.getByRole('tab', { name: 'To do (2)' })).toHaveAttribute('aria-selected', 'true')
  })

  it('§2 tabs: only the selected tab is in the tab order, and it names its panel', async () => {
    render(<Example />)
    const tabs = screen.getAllByRole('tab')
    expect(tabs.map((tab) => tab.tabIndex)).toEqual([0, -1, -1])
    const panel = screen.getByRole('tabpanel', { name: 'To do (2)' })
    expect(tabs[0]).toHaveAttribute('aria-controls', panel.id)
    // Nothing focusable inside: the panel itself is the next stop after the tab list.
    await userEvent.tab()
    await userEvent.tab()
    expect(panel).toHaveFocus()
  })

  it('§2 tabs: a panel holding a link leaves the focus to the link', async () => {
    render(
      <Tabs aria-label="Ideas">
        <TabPanel label="Home">
          <a href="/requests/category/1">Find a house cleaner</a>
        </TabPanel>
      </Tabs>,
    )
    expect(screen.getByRole('tabpanel')).not.toHaveAttribute('tabindex')
    await userEvent.tab()
    await userEvent.tab()
    expect(screen.getByRole('link', { name: 'Find a house cleaner' })).toHaveFocus()
  })

  it('§4 tabs: swiping the panel ≥ 50 px changes tab, bounded at the ends', () => {
    const onSelectionChange = vi.fn()
    render(<Example onSelectionChange={onSelectionChange} />)
    const area = () => screen.getByRole('tabpanel').parentElement as HTMLElement
    swipe(area(), 300, 280) // 20 px: nothing
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Open requests')
    swipe(area(), 300, 200) // left: forward
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Done requests')
    swipe(area(), 300, 200)
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Archived requests')
    swipe(area(), 300, 100) // already last
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Archived requests')
    swipe(area(), 100, 300) // right: back
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Done requests')
    expect(onSelectionChange.mock.calls.map((c) => c[0])).toEqual([
      'Completed__1_',
      'Archived',
      'Completed__1_',
    ])
  })

  it('§4 tabs: a mostly vertical gesture (scrolling) does not change tab', () => {
    render(<Example />)
    const area = screen.getByRole('tabpanel').parentElement as HTMLElement
    fireEvent.touchStart(area, { touches: [{ clientX: 300, clientY: 0 }] })
    fireEvent.touchEnd(area, { changedTouches: [{ clientX: 240, clientY: 300 }] })
    expect(screen.getByRole('tabpanel')).toHaveTextContent('Open requests')
  })

  it('§4 tabs: controlled selectedKey and explicit ids', async () => {
    render(
      <Tabs aria-label="Ideas" selectedKey="b">
        <TabPanel label="Alpha" id="a">
          A
        </TabPanel>
        <TabPanel label="Beta" id="b">
          B
        </TabPanel>
      </Tabs>,
    )
    expect(screen.getByRole('tab', { name: 'Beta' })).toHaveAttribute('aria-selected', 'true')
    expect(screen.getByRole('tabpanel')).toHaveTextContent('B')
  })
})

describe('§9 tabs that overflow', () => {
  /** A tab strip 300 px wide holding 800 px of tabs, scrolled to `left`. */
  function overflowing(left = 0) {
    const scrollBy = vi.fn()
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(300)
    vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(800)
    vi.spyOn(HTMLElement.prototype, 'scrollLeft', 'get').mockImplementation(() => left)
    HTMLElement.prototype.scrollBy = scrollBy
    return scrollBy
  }

  afterEach(() => vi.restoreAllMocks())

  it('§9 tabs: the scroll step is 80% of the visible width', () => {
    expect(tabScrollDistance(375)).toBe(300)
    expect(tabScrollDistance(300)).toBe(240)
  })

  it('§9 tabs: tabs that fit show no scroll buttons', () => {
    const { container } = render(<Example />)
    expect(container.querySelector('[data-tab-scroll]')).toBeNull()
  })

  it('§9 tabs: overflowing tabs show scroll buttons that move the strip by 80% of its width', () => {
    const scrollBy = overflowing(0)
    const { container } = render(<Example />)
    const back = container.querySelector<HTMLButtonElement>('[data-tab-scroll="back"]')
    const forward = container.querySelector<HTMLButtonElement>('[data-tab-scroll="forward"]')
    expect(back).toBeDisabled()
    expect(forward).toBeEnabled()
    fireEvent.click(forward as HTMLButtonElement)
    expect(scrollBy).toHaveBeenCalledWith(expect.objectContaining({ left: 240 }))
  })

  it('§9 tabs: scrolled to the end, only the back button works and moves back 80%', () => {
    const scrollBy = overflowing(500)
    const { container } = render(<Example />)
    const back = container.querySelector<HTMLButtonElement>('[data-tab-scroll="back"]')
    expect(container.querySelector('[data-tab-scroll="forward"]')).toBeDisabled()
    fireEvent.click(back as HTMLButtonElement)
    expect(scrollBy).toHaveBeenCalledWith(expect.objectContaining({ left: -240 }))
  })

  it('§9 tabs: the scroll buttons stay out of the tab order (arrow keys move between tabs)', () => {
    overflowing(100)
    const { container } = render(<Example />)
    for (const button of container.querySelectorAll('[data-tab-scroll]')) {
      expect(button).toHaveAttribute('tabindex', '-1')
    }
  })
})
