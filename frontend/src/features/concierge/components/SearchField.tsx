import { Search } from 'lucide-react'
import { type Ref, useId } from 'react'
import { controlClassName, cx } from '@/design-system'

export interface SearchFieldProps {
  label: string
  value: string
  onChange: (value: string) => void
  placeholder?: string
  className?: string
  /** The keyboard shortcut that focuses the box, announced to assistive technology. */
  shortcut?: string
  ref?: Ref<HTMLInputElement>
}

/** A labelled search box with a magnifier, in the design system's control style. */
export function SearchField({
  label,
  value,
  onChange,
  placeholder,
  className,
  shortcut,
  ref,
}: SearchFieldProps) {
  const id = useId()
  return (
    <div className={cx('flex min-w-0 flex-col gap-1.5', className)}>
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="relative">
        <Search
          aria-hidden="true"
          className="pointer-events-none absolute start-3 top-1/2 size-4 -translate-y-1/2 text-ink-muted"
        />
        <input
          ref={ref}
          id={id}
          type="search"
          aria-keyshortcuts={shortcut}
          value={value}
          placeholder={placeholder}
          autoComplete="off"
          maxLength={200}
          onChange={(event) => onChange(event.target.value)}
          className={controlClassName(false, 'ps-9')}
        />
      </div>
    </div>
  )
}
