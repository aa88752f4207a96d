/** The Dashboard's data, asked for as the navigation starts (see signedInLoader). */

import { requestListQuery } from '@/features/conversation'
import { recommendedCategoriesQuery, surveyCategoriesQuery } from '@/features/request-drawer'
import { signedInLoader, warmQuery } from '@/lib/queryClient'

export const loader = signedInLoader(() => [
  warmQuery(requestListQuery('in_progress')),
  warmQuery(requestListQuery('open')),
  warmQuery(recommendedCategoriesQuery),
  warmQuery(surveyCategoriesQuery),
])
