import { Radio, RadioGroup } from 'react-aria-components'
import { CategoryIcon, cx } from '@/design-system'
import type { OfferingCategory } from '../api'
import { ALL_CATEGORIES } from '../filters'

/** Offering category names whose icon goes by another name in the design system's icon set. */
const ICON_NAMES: Record<string, string> = { financial: 'finances' }

function iconFor(category: string): string {
  return ICON_NAMES[category.trim().toLowerCase()] ?? category
}

export interface CategoryFilterBarProps {
  categories: OfferingCategory[]
  /** The selected category name, or 'All'. */
  value: string
  onChange: (category: string) => void
}

/**
 * The category filter bar of the all page (spec §2 'OfferingsFull'): 'All' plus every category
 * as pill-shaped radio buttons in one radio group. Tab moves into the group, arrow keys move the
 * selection. It scrolls sideways on small screens and wraps on wider ones.
 */
export function CategoryFilterBar({ categories, value, onChange }: CategoryFilterBarProps) {
  const options = [ALL_CATEGORIES, ...categories.map((c) => c.name)]
  return (
    <RadioGroup
      aria-label="Filter by category"
      orientation="horizontal"
      value={value}
      onChange={onChange}
      className="-mx-4 overflow-x-auto px-4 py-1 [scrollbar-width:thin] sm:mx-0 sm:overflow-visible sm:px-0"
    >
      <div className="flex w-max gap-2 sm:w-auto sm:flex-wrap">
        {options.map((name) => (
          <Radio
            key={name}
            value={name}
            className={cx(
              'relative inline-flex min-h-10 shrink-0 cursor-pointer items-center gap-2 rounded-full border px-4 py-2 text-sm font-semibold whitespace-nowrap',
              'transition-colors duration-150 motion-reduce:transition-none',
              'border-line bg-surface text-ink hover:border-primary-400 hover:bg-primary-50',
              'data-[selected]:border-primary-600 data-[selected]:bg-primary-600 data-[selected]:text-white',
              'data-[focus-visible]:outline-solid data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus',
            )}
          >
            {name === ALL_CATEGORIES ? null : (
              <CategoryIcon name={iconFor(name)} className="size-4 shrink-0" />
            )}
            {name}
          </Radio>
        ))}
      </div>
    </RadioGroup>
  )
}
