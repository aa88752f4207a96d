/**
 * Dashboard (spec §2): the welcome, the first-request introduction (request_count 0) or the
 * latest request, request ideas, 'Explore categories' and 'Create a request', and the
 * sponsoring companies on small screens.
 */
import { Compass, Plus } from 'lucide-react'
import { useId } from 'react'
import { BroughtToYouBy, Button, buttonClassName, PageHeader } from '@/design-system'
import { EmailVerificationNotice } from '@/features/account'
import { INTRO_SURVEY_ID, INTRO_SURVEY_NAME, useRequestDrawer } from '@/features/request-drawer'
import { useCurrentUser } from '@/lib/currentUser'
import {
  CATEGORIES_ANCHOR,
  CATEGORIES_HEADING_ID,
  CategoriesOverview,
} from '../components/CategoriesOverview'
import { FirstRequestIntro } from '../components/FirstRequestIntro'
import { LatestRequest } from '../components/LatestRequest'
import { RequestIdeas } from '../components/RequestIdeas'

/** A jump to a fragment leaves focus on the link: screen readers and Tab go on from the categories. */
function focusCategories() {
  document.getElementById(CATEGORIES_HEADING_ID)?.focus()
}

export default function Dashboard() {
  const user = useCurrentUser()
  const drawer = useRequestDrawer()
  const ideasHeadingId = useId()
  const createRequest = () =>
    drawer.open({ surveyId: INTRO_SURVEY_ID, surveyName: INTRO_SURVEY_NAME })
  const firstTime = user.request_count === 0

  return (
    <div className="flex flex-col gap-10">
      <PageHeader title={`Welcome, ${user.first_name}`}>
        {firstTime
          ? 'Your personal concierge is ready when you are.'
          : 'Here’s what’s happening with your requests.'}
      </PageHeader>

      <EmailVerificationNotice />

      {firstTime ? <FirstRequestIntro onCreate={createRequest} /> : <LatestRequest />}

      <div className="flex flex-col gap-5">
        <RequestIdeas headingId={ideasHeadingId} />
        <div className="flex flex-col gap-3 sm:flex-row">
          <a
            href={`#${CATEGORIES_ANCHOR}`}
            onClick={focusCategories}
            className={buttonClassName({ variant: 'secondary' })}
          >
            <Compass aria-hidden="true" className="size-5" />
            Explore categories
          </a>
          <Button onClick={createRequest} icon={<Plus />}>
            Create a request
          </Button>
        </div>
      </div>

      <CategoriesOverview />

      <BroughtToYouBy companies={user.companies} className="sm:hidden" />
    </div>
  )
}
