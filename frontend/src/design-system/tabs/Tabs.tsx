import { ChevronLeft, ChevronRight } from 'lucide-react'
import {
  Children,
  isValidElement,
  type KeyboardEvent,
  type ReactElement,
  type ReactNode,
  type RefObject,
  type TouchEvent,
  useCallback,
  useEffect,
  useId,
  useRef,
  useState,
} from 'react'
import { cx } from '../utils'
import {
  nextTabIndexForSwipe,
  TAB_SWIPE_THRESHOLD_PX,
  tabIdFromLabel,
  tabScrollDistance,
} from './swipe'

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

interface Overflow {
  back: boolean
  forward: boolean
}

/** Whether the tab strip can scroll back or forward, kept up to date as it scrolls or resizes. */
function useOverflow(listRef: RefObject<HTMLDivElement | null>, count: number): Overflow {
  const [overflow, setOverflow] = useState<Overflow>({ back: false, forward: false })
  const measure = useCallback(() => {
    const list = listRef.current
    if (!list) return
    const back = list.scrollLeft > 1
    const forward = list.scrollLeft + list.clientWidth < list.scrollWidth - 1
    setOverflow((now) => (now.back === back && now.forward === forward ? now : { back, forward }))
  }, [listRef])
  // biome-ignore lint/correctness/useExhaustiveDependencies: measures again when tabs come or go
  useEffect(() => {
    const list = listRef.current
    if (!list) return
    list.addEventListener('scroll', measure, { passive: true })
    // The observer's first callback comes once the list is laid out: measuring here instead
    // would force that layout in the middle of the commit.
    const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure)
    if (observer) observer.observe(list)
    else measure()
    return () => {
      list.removeEventListener('scroll', measure)
      observer?.disconnect()
    }
  }, [listRef, measure, count])
  return overflow
}

const prefersReducedMotion = () =>
  typeof window.matchMedia === 'function' &&
  window.matchMedia('(prefers-reduced-motion: reduce)').matches

/**
 * A scroll button at one end of an overflowing tab strip: moves it by 80 % of its visible width
 * (spec §9). Pointer help only: keyboard users move between tabs with the arrow keys, and the
 * selected tab scrolls into view, so the button stays out of the tab order.
 */
function ScrollButton({
  direction,
  enabled,
  listRef,
}: {
  direction: 'back' | 'forward'
  enabled: boolean
  listRef: RefObject<HTMLDivElement | null>
}) {
  const Icon = direction === 'back' ? ChevronLeft : ChevronRight
  return (
    <button
      type="button"
      tabIndex={-1}
      aria-hidden="true"
      data-tab-scroll={direction}
      disabled={!enabled}
      onClick={() => {
        const list = listRef.current
        if (!list) return
        const distance = tabScrollDistance(list.clientWidth)
        list.scrollBy({
          left: direction === 'back' ? -distance : distance,
          behavior: prefersReducedMotion() ? 'auto' : 'smooth',
        })
      }}
      className={cx(
        'flex w-9 shrink-0 cursor-pointer items-center justify-center text-ink-muted',
        'hover:bg-primary-50 hover:text-primary-700 disabled:cursor-default disabled:opacity-30',
        'disabled:hover:bg-transparent',
      )}
    >
      <Icon className="size-5" />
    </button>
  )
}

/** The design system's focus ring drawn inside the element: the scrolling strip would clip it. */
const insetFocusRing =
  'focus-visible:outline-solid focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-focus'

/** What a keyboard user can reach with Tab inside a panel. */
const TABBABLE =
  'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])'

/** The tab an arrow, Home or End key moves to (wrapping at the ends), or null for other keys. */
function tabIndexForKey(key: string, index: number, count: number): number | null {
  if (key === 'ArrowRight') return (index + 1) % count
  if (key === 'ArrowLeft') return (index - 1 + count) % count
  if (key === 'Home') return 0
  if (key === 'End') return count - 1
  return null
}

/**
 * Accessible tabs (the WAI-ARIA tabs pattern, automatic activation): the arrow keys, Home and
 * End move between tabs and select them, only the selected tab is in the tab order, and each
 * tab controls its panel; a panel with nothing focusable in it takes focus itself. On touch
 * screens a horizontal swipe on the panel moves to the next or previous tab. When the tabs are
 * wider than the strip, scroll buttons at its ends move it by 80 % of its width.
 *
 * Written here rather than on React Aria's tabs: those bring some 37 KB of collection and focus
 * code to the first load of the screens that open on tabs (Requests, the Dashboard on a phone).
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
  const panelRef = useRef<HTMLDivElement>(null)
  const baseId = useId()
  const tabId = (id: string) => `${baseId}-tab-${id}`
  const panelId = (id: string) => `${baseId}-tabpanel-${id}`
  const overflow = useOverflow(listRef, panels.length)
  const overflowing = overflow.back || overflow.forward

  const select = (id: string) => {
    if (id === current) return
    setInternal(id)
    onSelectionChange?.(id)
  }

  // Keep the active tab visible when the tab list scrolls horizontally (small screens). The
  // strip starts scrolled to its first tab, so a first tab selected from the start needs no
  // scrolling (which would lay the page out in the middle of its first commit).
  const scrolledFor = useRef(ids[0])
  useEffect(() => {
    if (current === scrolledFor.current) return
    scrolledFor.current = current
    const tab = listRef.current?.querySelector<HTMLElement>('[role="tab"][aria-selected="true"]')
    tab?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' })
  }, [current])

  // A panel joins the tab order only when nothing inside it can take focus (its content may
  // change on any render: a skeleton, then a list of links).
  useEffect(() => {
    const panel = panelRef.current
    if (!panel) return
    if (panel.querySelector(TABBABLE)) panel.removeAttribute('tabindex')
    else panel.tabIndex = 0
  })

  const onKeyDown = (event: KeyboardEvent) => {
    if (current === undefined) return
    const next = tabIndexForKey(event.key, ids.indexOf(current), ids.length)
    if (next === null) return
    event.preventDefault()
    select(ids[next])
    document.getElementById(tabId(ids[next]))?.focus()
  }

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

  const selected = panels.find((panel) => panel.id === current)
  if (!selected) return null

  return (
    <div className={cx('flex flex-col', className)}>
      <div className="relative flex border-b border-line">
        {overflowing ? (
          <ScrollButton direction="back" enabled={overflow.back} listRef={listRef} />
        ) : null}
        <div
          ref={listRef}
          role="tablist"
          aria-orientation="horizontal"
          aria-label={ariaLabel}
          aria-labelledby={ariaLabelledby}
          onKeyDown={onKeyDown}
          className={cx(
            'flex min-w-0 flex-1 gap-1 overflow-x-auto [scrollbar-width:none] [&::-webkit-scrollbar]:hidden',
            tabListClassName,
          )}
        >
          {panels.map((panel) => {
            const isSelected = panel.id === current
            return (
              <button
                key={panel.id}
                type="button"
                role="tab"
                id={tabId(panel.id)}
                aria-selected={isSelected}
                aria-controls={isSelected ? panelId(panel.id) : undefined}
                tabIndex={isSelected ? 0 : -1}
                data-selected={isSelected || undefined}
                onClick={() => select(panel.id)}
                className={cx(
                  'relative min-h-11 shrink-0 cursor-pointer whitespace-nowrap rounded-t-md px-4 py-2.5',
                  'text-sm font-semibold text-ink-muted transition-colors motion-reduce:transition-none',
                  'hover:text-ink data-[selected]:text-primary-700',
                  'after:absolute after:inset-x-2 after:bottom-0 after:h-[3px] after:rounded-full after:bg-transparent',
                  'data-[selected]:after:bg-primary-600 after:transition-colors',
                  insetFocusRing,
                  fullWidth && 'flex-1 text-center',
                  fitNarrow &&
                    'max-sm:min-w-0 max-sm:flex-1 max-sm:whitespace-normal max-sm:px-2 max-sm:text-center',
                )}
              >
                {panel.label}
              </button>
            )
          })}
        </div>
        {overflowing ? (
          <ScrollButton direction="forward" enabled={overflow.forward} listRef={listRef} />
        ) : null}
      </div>
      <div
        onTouchStart={swipeable ? onTouchStart : undefined}
        onTouchEnd={swipeable ? onTouchEnd : undefined}
      >
        <div
          ref={panelRef}
          key={selected.id}
          role="tabpanel"
          id={panelId(selected.id)}
          aria-labelledby={tabId(selected.id)}
          className={cx('pt-4', insetFocusRing, selected.className)}
        >
          {selected.content}
        </div>
      </div>
    </div>
  )
}
