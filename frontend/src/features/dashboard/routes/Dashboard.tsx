import { useCurrentUser } from '@/app/guards'
import { BroughtToYouBy } from '@/app/shell/BroughtToYouBy'
import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'

/** Dashboard (placeholder): the welcome, and the sponsoring companies on small screens. */
export default function Dashboard() {
  const user = useCurrentUser()
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title={`Welcome, ${user.first_name}`}>
        Here’s what’s happening with your requests.
      </PageHeader>
      <ComingSoon title="Your dashboard is almost ready">
        Soon you’ll see your latest request and ideas for what to hand off next, right here.
      </ComingSoon>
      <BroughtToYouBy companies={user.companies} className="sm:hidden" />
    </div>
  )
}
