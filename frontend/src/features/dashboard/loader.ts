/** The Dashboard's data, asked for as the navigation starts (see signedInLoader). */
import { signedInLoader, warmQuery } from '@/lib/queryClient'
import { requestListQuery } from '@/lib/requests/api'
import { recommendedCategoriesQuery, surveyCategoriesQuery } from '@/lib/requests/surveys'

export const loader = signedInLoader(() => [
  warmQuery(requestListQuery('in_progress')),
  warmQuery(requestListQuery('open')),
  warmQuery(recommendedCategoriesQuery),
  warmQuery(surveyCategoriesQuery),
])
