/** The Benefits & Offers screen's data, asked for as the navigation starts (see signedInLoader). */
import { signedInLoader, warmQuery } from '@/lib/queryClient'
import { FEATURED_BENEFITS, FEATURED_PRODUCTS, offeringsQuery } from './api'

export const loader = signedInLoader(() => [
  warmQuery(offeringsQuery(FEATURED_BENEFITS)),
  warmQuery(offeringsQuery(FEATURED_PRODUCTS)),
])
