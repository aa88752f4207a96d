import { ArrowRight, LifeBuoy } from 'lucide-react'
import type { ReactNode } from 'react'
import {
  Assistant,
  Button,
  Heading,
  Link,
  PageHeader,
  Paragraph,
  RetryAlert,
} from '@/design-system'
import { EmailVerificationNotice } from '@/features/account'
import { BENEFITS_HELP_SURVEY_ID, useRequestDrawer } from '@/features/request-drawer'
import { FEATURED_BENEFITS, FEATURED_PRODUCTS, useOfferings } from '../api'
import { DetailsDrawer } from '../components/DetailsDrawer'
import { OfferingGrid, OfferingGridSkeleton } from '../components/OfferingGrid'
import { useDetailsDrawer } from '../components/useDetailsDrawer'
import { LogoRetryProvider } from '../logoRetry'

export const BENEFITS_HELP_SURVEY_NAME = 'Help me with my benefits'
export const ALL_BENEFITS_HREF = '/benefits-and-offers/all?type=benefit'
export const ALL_OFFERINGS_HREF = '/benefits-and-offers/all'

/**
 * OfferingsLanding (spec §2): the intro, the benefits-help block (request survey 720), the
 * featured benefits and featured partner offers (each section only when it has offerings), and
 * the disclaimer. Cards open the details drawer.
 */
export default function OfferingsLanding() {
  const drawer = useDetailsDrawer()
  return (
    <LogoRetryProvider>
      <div className="flex flex-col gap-10">
        <PageHeader title="Benefits & Offers">
          Your benefits and exclusive partner offers, all in one place. Open any card for the
          details, or ask your concierge to help you make the most of them.
        </PageHeader>
        <EmailVerificationNotice />
        <BenefitsHelp />
        <FeaturedSection
          kind="benefits"
          title="Your Benefits"
          description="Coverage and perks from your employer."
          viewAllHref={ALL_BENEFITS_HREF}
          onOpen={drawer.open}
        />
        <FeaturedSection
          kind="offers"
          title="Exclusive Partner Offers"
          description="Discounts and services from our partners, just for you."
          viewAllHref={ALL_OFFERINGS_HREF}
          onOpen={drawer.open}
        />
        <Disclaimer />
      </div>
      <DetailsDrawer
        offeringId={drawer.selected?.id ?? null}
        preview={drawer.selected}
        onClose={drawer.close}
      />
    </LogoRetryProvider>
  )
}

function BenefitsHelp() {
  const requestDrawer = useRequestDrawer()
  return (
    <section
      aria-labelledby="benefits-help-heading"
      className="flex flex-col gap-5 rounded-3xl bg-primary-50 p-6 sm:flex-row sm:items-center sm:p-8"
    >
      <Assistant size="lg" waving className="self-center sm:self-auto" />
      <div className="flex flex-1 flex-col gap-2">
        <Heading level={2} id="benefits-help-heading">
          Need help with your benefits?
        </Heading>
        <Paragraph tone="muted">
          Not sure what's covered, how to enroll or which plan fits you best? Your concierge will
          look into it and get back to you.
        </Paragraph>
      </div>
      <Button
        icon={<LifeBuoy />}
        className="self-start sm:self-center"
        onClick={() =>
          requestDrawer.open({
            surveyId: BENEFITS_HELP_SURVEY_ID,
            surveyName: BENEFITS_HELP_SURVEY_NAME,
          })
        }
      >
        Request help
      </Button>
    </section>
  )
}

function FeaturedSection({
  kind,
  title,
  description,
  viewAllHref,
  onOpen,
}: {
  kind: 'benefits' | 'offers'
  title: string
  description: ReactNode
  viewAllHref: string
  onOpen: Parameters<typeof OfferingGrid>[0]['onOpen']
}) {
  const query = useOfferings(kind === 'benefits' ? FEATURED_BENEFITS : FEATURED_PRODUCTS)
  const headingId = `featured-${kind}-heading`
  const what = kind === 'benefits' ? 'benefits' : 'partner offers'

  if (query.isPending) {
    return <OfferingGridSkeleton label={`Loading ${what}`} />
  }
  if (query.isError) {
    return (
      <RetryAlert
        message={`We couldn't load your ${what} right now.`}
        onRetry={() => void query.refetch()}
      />
    )
  }
  // The section appears only if there are featured offerings of its type.
  if (query.data.length === 0) return null
  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-4">
      <div className="flex flex-wrap items-end justify-between gap-x-4 gap-y-1">
        <div className="flex flex-col gap-1">
          <Heading level={2} id={headingId}>
            {title}
          </Heading>
          <Paragraph tone="muted" size="sm">
            {description}
          </Paragraph>
        </div>
        <Link to={viewAllHref} underline="hover" className="inline-flex items-center gap-1 py-1">
          View all<span className="sr-only"> {what}</span>
          <ArrowRight aria-hidden="true" className="size-4" />
        </Link>
      </div>
      <OfferingGrid offerings={query.data} onOpen={onOpen} label={title} />
    </section>
  )
}

function Disclaimer() {
  return (
    <Paragraph size="sm" tone="muted" className="border-t border-line pt-6">
      Partner offers are provided by third parties. Your employer doesn't endorse, sponsor or
      guarantee them, and each partner sets its own terms, prices and eligibility. Benefit
      descriptions are summaries; your plan documents always govern your coverage.
    </Paragraph>
  )
}
