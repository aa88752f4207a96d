/**
 * The all page's filters (spec §2 'OfferingsFull', §4 'Offerings'): the type filter (benefit or
 * all) and the category filter (a category name, default All), read from and written to the URL
 * query. Unknown values fall back to the defaults without an error.
 */
import type { Offering, OfferingCategory } from './api'

export type TypeFilter = 'benefit' | 'all'

export const ALL_CATEGORIES = 'All'

/** `?type=benefit` → 'benefit'; anything else (missing, 'all', unknown) → 'all'. */
export function parseTypeFilter(raw: string | null | undefined): TypeFilter {
  return raw?.trim().toLowerCase() === 'benefit' ? 'benefit' : 'all'
}

/**
 * `?filter=Health` → 'Health' (the category's own spelling; matched case-insensitively);
 * missing or unknown → 'All'.
 */
export function resolveCategoryFilter(
  raw: string | null | undefined,
  categories: readonly Pick<OfferingCategory, 'name'>[],
): string {
  const wanted = raw?.trim().toLowerCase()
  if (!wanted) return ALL_CATEGORIES
  return categories.find((c) => c.name.toLowerCase() === wanted)?.name ?? ALL_CATEGORIES
}

/** The 'Show only my benefits' toggle shows only if benefits exist and are fewer than all offerings. */
export function showBenefitsToggle(offerings: readonly Pick<Offering, 'type'>[]): boolean {
  const benefits = offerings.filter((o) => o.type === 'benefit').length
  return benefits > 0 && benefits < offerings.length
}

/**
 * The offerings shown on the all page. The type filter only applies when the user has any
 * benefit (otherwise `type=benefit` would hide everything with no toggle to undo it).
 */
export function filterOfferings<T extends Pick<Offering, 'type' | 'categories'>>(
  offerings: readonly T[],
  { type, category }: { type: TypeFilter; category: string },
): T[] {
  const hasBenefits = offerings.some((o) => o.type === 'benefit')
  return offerings.filter(
    (o) =>
      (type === 'all' || !hasBenefits || o.type === 'benefit') &&
      (category === ALL_CATEGORIES ||
        o.categories.some((c) => c.toLowerCase() === category.toLowerCase())),
  )
}
