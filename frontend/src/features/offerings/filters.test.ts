import { describe, expect, it } from 'vitest'
import {
  filterOfferings,
  parseTypeFilter,
  resolveCategoryFilter,
  showBenefitsToggle,
} from './filters'
import {
  allOfferings,
  categories,
  dental,
  hotels,
  lifeInsurance,
  medical,
  retirement,
} from './test/fixtures'

describe('§2 OfferingsFull / §4 Offerings: filters', () => {
  it('§4 Offerings: the type filter is benefit or all; unknown values fall back to all', () => {
    expect(parseTypeFilter('benefit')).toBe('benefit')
    expect(parseTypeFilter('Benefit')).toBe('benefit')
    expect(parseTypeFilter('all')).toBe('all')
    expect(parseTypeFilter('product')).toBe('all')
    expect(parseTypeFilter('nonsense')).toBe('all')
    expect(parseTypeFilter(null)).toBe('all')
  })

  it('§4 Offerings: the category filter is a category name, default All; unknown → All', () => {
    expect(resolveCategoryFilter('Health', categories)).toBe('Health')
    expect(resolveCategoryFilter('health', categories)).toBe('Health')
    expect(resolveCategoryFilter('Gardening', categories)).toBe('All')
    expect(resolveCategoryFilter('', categories)).toBe('All')
    expect(resolveCategoryFilter(null, categories)).toBe('All')
  })

  it('§2 OfferingsFull: the toggle shows only if benefits exist and are fewer than all offerings', () => {
    expect(showBenefitsToggle(allOfferings)).toBe(true)
    expect(showBenefitsToggle([hotels, lifeInsurance])).toBe(false)
    expect(showBenefitsToggle([medical, dental])).toBe(false)
    expect(showBenefitsToggle([])).toBe(false)
  })

  it('filters by type and category together', () => {
    expect(filterOfferings(allOfferings, { type: 'all', category: 'All' })).toEqual(allOfferings)
    expect(filterOfferings(allOfferings, { type: 'benefit', category: 'All' })).toEqual([
      medical,
      dental,
      retirement,
    ])
    expect(filterOfferings(allOfferings, { type: 'all', category: 'Financial' })).toEqual([
      retirement,
      lifeInsurance,
    ])
    expect(filterOfferings(allOfferings, { type: 'benefit', category: 'Financial' })).toEqual([
      retirement,
    ])
    expect(filterOfferings(allOfferings, { type: 'all', category: 'Pets' })).toEqual([])
  })

  it('ignores type=benefit when the user has no benefits at all', () => {
    expect(filterOfferings([hotels, lifeInsurance], { type: 'benefit', category: 'All' })).toEqual([
      hotels,
      lifeInsurance,
    ])
  })
})
