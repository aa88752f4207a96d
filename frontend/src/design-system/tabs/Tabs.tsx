import {
  Children,
  isValidElement,
  type ReactElement,
  type ReactNode,
  type TouchEvent,
  useEffect,
  useRef,
  useState,
} from 'react'
import {
  Tab as AriaTab,
  TabList as AriaTabList,
  TabPanel as AriaTabPanel,
  Tabs as AriaTabs,
  type Key,
} from 'react-aria-components'
import { cx, focusRingAria } from '../utils'
import { nextTabIndexForSwipe, TAB_SWIPE_THRESHOLD_PX, tabIdFromLabel } from './swipe'

export interface TabPanelProps {
  /** Tab label. The tab id is derived from it with `tabIdFromLabel` unless `id` is given. */
  label: string
  /** Override the id (e.g. when the label carries a changing count like 'To do (3)'). */
  id?: string
  children?: ReactNode
  className?: string
}

/** One tab and its panel. Only meaningful as a direct child of <Tabs>. */
export function TabPanel(_props: TabPanelProps): ReactElement | null {
  return null
}

export interface TabsProps {
  /** <TabPanel> children. */
  children: ReactNode
  /** Accessible name of the tab list. */
  'aria-label'?: string
  'aria-labelledby'?: string
  /** Controlled selected tab id. */
  selectedKey?: string
  /** Initially selected tab id (uncontrolled). Default: the first tab. */
  defaultSelectedKey?: string
  onSelectionChange?: (id: string) => void
  /** Swipe a panel by ≥ 50 px to move to the next/previous tab. Default true. */
  swipeable?: boolean
  /** Stretch tabs to equal widths. */
  fullWidth?: boolean
  /**
   * Below the sm breakpoint the tabs share the width and a long label wraps onto a second line,
   * so every tab is whole on a phone (no tab cut off at the edge).
   */
  fitNarrow?: boolean
  className?: string
  tabListClassName?: string
}

interface PanelSpec {
  id: string
  label: string
  content: ReactNode
  className?: string
}

function collectPanels(children: ReactNode): PanelSpec[] {
  const panels: PanelSpec[] = []
  Children.forEach(children, (child) => {
    if (isValidElement<TabPanelProps>(child) && child.type === TabPanel) {
      const { label, id, children: content, className } = child.props
      panels.push({ id: id ?? tabIdFromLabel(label), label, content, className })
    }
  })
  return panels
}

/**
 * Accessible tabs (React Aria): arrow keys move between tabs, each tab controls its panel.
 * On touch screens a horizontal swipe on the panel moves to the next or previous tab.
 */
export function Tabs({
  children,
  'aria-label': ariaLabel,
  'aria-labelledby': ariaLabelledby,
  selectedKey,
  defaultSelectedKey,
  onSelectionChange,
  swipeable = true,
  fullWidth = false,
  fitNarrow = false,
  className,
  tabListClassName,
}: TabsProps) {
  const panels = collectPanels(children)
  const [internal, setInternal] = useState<string | undefined>(defaultSelectedKey)
  const ids = panels.map((p) => p.id)
  const wanted = selectedKey ?? internal
  const current = wanted !== undefined && ids.includes(wanted) ? wanted : ids[0]
  const touchStart = useRef<{ x: number; y: number } | null>(null)
  const listRef = useRef<HTMLDivElement>(null)

  const select = (id: string) => {
    if (id === current) return
    setInternal(id)
    onSelectionChange?.(id)
  }

  // Keep the active tab visible when the tab list scrolls horizontally (small screens).
  // biome-ignore lint/correctness/useExhaustiveDependencies: runs whenever the selected tab changes
  useEffect(() => {
    const tab = listRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [current])

  const onTouchStart = (event: TouchEvent) => {
    const t = event.touches[0]
    touchStart.current = t ? { x: t.clientX, y: t.clientY } : null
  }
  const onTouchEnd = (event: TouchEvent) => {
    const start = touchStart.current
    touchStart.current = null
    const t = event.changedTouches[0]
    if (!start || !t || current === undefined) return
    const dx = t.clientX - start.x
    const dy = t.clientY - start.y
    if (Math.abs(dx) < TAB_SWIPE_THRESHOLD_PX || Math.abs(dy) > Math.abs(dx)) return
    const index = ids.indexOf(current)
    const next = nextTabIndexForSwipe(index, ids.length, dx)
    if (next !== index) select(ids[next])
  }

  if (panels.length === 0) return null

  return (
    <AriaTabs
      selectedKey={current}
      onSelectionChange={(key: Key) => select(String(key))}
      className={cx('flex flex-col', className)}
    >
      <div className="relative border-b border-line">
        <AriaTabList
          ref={listRef}
          aria-label={ariaLabel}
          aria-labelledby={ariaLabelledby}
          className={cx(
            'flex snap-x gap-1 overflow-x-auto [scrollbar-width:none] [&::-webkit-scrollbar]:hidden',
            tabListClassName,
          )}
        >
          {panels.map((panel) => (
            <AriaTab
              key={panel.id}
              id={panel.id}
              className={cx(
                'relative min-h-11 shrink-0 cursor-pointer snap-start whitespace-nowrap rounded-t-md px-4 py-2.5',
                'text-sm font-semibold text-ink-muted transition-colors motion-reduce:transition-none',
                'hover:text-ink data-[selected]:text-primary-700',
                'after:absolute after:inset-x-2 after:bottom-0 after:h-[3px] after:rounded-full after:bg-transparent',
                'data-[selected]:after:bg-primary-600 after:transition-colors',
                focusRingAria,
                '-outline-offset-2',
                fullWidth && 'flex-1 text-center',
                fitNarrow &&
                  'max-sm:min-w-0 max-sm:flex-1 max-sm:whitespace-normal max-sm:px-2 max-sm:text-center',
              )}
            >
              {panel.label}
            </AriaTab>
          ))}
        </AriaTabList>
      </div>
      <div
        onTouchStart={swipeable ? onTouchStart : undefined}
        onTouchEnd={swipeable ? onTouchEnd : undefined}
      >
        {panels.map((panel) => (
          <AriaTabPanel
            key={panel.id}
            id={panel.id}
            className={cx('pt-4', focusRingAria, panel.className)}
          >
            {panel.content}
          </AriaTabPanel>
        ))}
      </div>
    </AriaTabs>
  )
}
