import { Switch } from 'react-aria-components'
import { cx } from '@/design-system'

/** The 'Show only my benefits' switch of the all page (spec §2 'OfferingsFull'). */
export function BenefitsToggle({
  isSelected,
  onChange,
}: {
  isSelected: boolean
  onChange: (selected: boolean) => void
}) {
  return (
    <Switch
      isSelected={isSelected}
      onChange={onChange}
      className="group inline-flex min-h-11 cursor-pointer items-center gap-3 text-base font-medium text-ink rounded-full data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-4 data-[focus-visible]:outline-focus"
    >
      <span
        aria-hidden="true"
        className={cx(
          'relative inline-flex h-7 w-12 shrink-0 items-center rounded-full border-2 border-transparent bg-neutral-400',
          'transition-colors duration-200 motion-reduce:transition-none',
          'group-data-[selected]:bg-primary-600',
        )}
      >
        <span className="size-6 translate-x-0 rounded-full bg-white shadow-sm transition-transform duration-200 group-data-[selected]:translate-x-5 motion-reduce:transition-none" />
      </span>
      Show only my benefits
    </Switch>
  )
}
