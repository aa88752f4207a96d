/** The Dashboard's data, asked for as the navigation starts (see signedInLoader). */
import { signedInLoader, warmQuery } from '@/lib/queryClient'
import { requestListQuery } from '@/lib/requests/api'
import { recommendedCategoriesQuery, surveyCategoriesQuery } from '@/lib/requests/surveys'
import { mediaMatches, SM_UP } from '@/lib/useMediaQuery'
import { loadIdeasTabs } from './components/ideasTabs'

export const loader = signedInLoader(() => [
  warmQuery(requestListQuery('in_progress')),
  warmQuery(requestListQuery('open')),
  warmQuery(recommendedCategoriesQuery),
  warmQuery(surveyCategoriesQuery),
  // Small screens show the request ideas as tabs, whose code comes with the data.
  ...(mediaMatches(SM_UP) ? [] : [loadIdeasTabs()]),
])
