import { TabPanel, Tabs } from '@/design-system'
import type { RecommendedCategory } from '@/features/request-drawer'
import { CategoryColumn } from './CategoryColumn'

/** The request ideas on small screens: one tab per category. */
export function RequestIdeasTabs({
  categories,
  headingId,
}: {
  categories: RecommendedCategory[]
  headingId: string
}) {
  return (
    <Tabs aria-labelledby={headingId} fullWidth>
      {categories.map((category) => (
        <TabPanel key={category.id} label={category.name}>
          <CategoryColumn category={category} hideHeading />
        </TabPanel>
      ))}
    </Tabs>
  )
}
