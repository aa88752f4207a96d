import { useQueryClient } from '@tanstack/react-query'
import { LifeBuoy } from 'lucide-react'
import { useEffect, useState } from 'react'
import {
  Assistant,
  Button,
  Drawer,
  Heading,
  LoadFailed,
  Overline,
  Paragraph,
  Skeleton,
  SkeletonGroup,
} from '@/design-system'
import { useRequestDrawer } from '@/features/request-drawer'
import {
  type Offering,
  type OfferingDetail,
  OfferingNotFoundError,
  offeringKeys,
  useOffering,
  useRefreshCatalogue,
} from '../api'
import { OfferingSections } from './OfferingSections'
import { ProviderLogo } from './ProviderLogo'

export interface OfferingDetailsDrawerProps {
  /** The offering to show; null closes the drawer. */
  offeringId: number | null
  /** The card's data, shown in the header while the details load. */
  preview?: Offering | null
  onClose: () => void
}

/**
 * The offering details drawer (spec §2): a right-hand panel drawer that fetches the offering's
 * details when it opens, then shows the provider logo, the heading (plus 'Partner offer' for
 * offers), the offering name, its sections and, when the offering has a request survey, a
 * 'Get help' block that hands over to the request drawer. When the server refuses that 'Get
 * help' because the offering is gone for the user, the catalogue is fetched again, so the
 * offering (and its 'Get help') disappears.
 */
export function OfferingDetailsDrawer({
  offeringId,
  preview,
  onClose,
}: OfferingDetailsDrawerProps) {
  // Keep showing the last offering while the drawer slides out.
  const [shownId, setShownId] = useState(offeringId)
  const [shownPreview, setShownPreview] = useState(preview ?? null)
  if (offeringId !== null && offeringId !== shownId) {
    setShownId(offeringId)
    setShownPreview(preview ?? null)
  }
  const query = useOffering(shownId)
  const detail = query.data
  const header = detail ?? (shownPreview?.id === shownId ? shownPreview : null)

  return (
    <Drawer
      isOpen={offeringId !== null}
      onClose={onClose}
      placement="right"
      variant="panel"
      aria-label={header?.heading ?? 'Offering details'}
    >
      {query.isError && query.error instanceof OfferingNotFoundError ? (
        <NotAvailable onClose={onClose} />
      ) : query.isError ? (
        <LoadFailed
          title="We couldn't load this offering"
          message="Please check your connection and try again."
          illustration={<Assistant size="lg" />}
          onRetry={() => void query.refetch()}
        />
      ) : (
        // Admins write every text here: a long word wraps (inherited) rather than widen the drawer.
        <article className="flex flex-col gap-6 pb-4 wrap-anywhere">
          {header ? <DetailsHeader offering={header} /> : <HeaderSkeleton />}
          {detail ? (
            <>
              <OfferingSections sections={detail.sections} />
              <GetHelp offering={detail} />
            </>
          ) : (
            <SectionsSkeleton />
          )}
        </article>
      )}
    </Drawer>
  )
}

function DetailsHeader({ offering }: { offering: Offering | OfferingDetail }) {
  return (
    <header className="flex flex-col gap-4">
      <ProviderLogo
        providerName={offering.provider_name}
        url={offering.provider_logo_url}
        alt={offering.provider_name}
        size="lg"
      />
      <div className="flex min-w-0 flex-col gap-1">
        {offering.type === 'product' ? <Overline>Partner offer</Overline> : null}
        <Heading level={2}>{offering.heading}</Heading>
        {offering.name ? (
          <Paragraph tone="muted" size="lg" className="wrap-anywhere">
            {offering.name}
          </Paragraph>
        ) : null}
      </div>
    </header>
  )
}

/**
 * The request drawer opened here takes this drawer's history entry, which closes this one: one
 * Back then closes the request drawer and leaves the catalogue where it was.
 */
function GetHelp({ offering }: { offering: OfferingDetail }) {
  const requestDrawer = useRequestDrawer()
  const refreshCatalogue = useRefreshCatalogue()
  const cta = offering.request_survey_cta?.trim()
  const surveyId = offering.request_survey_id
  if (!cta || surveyId === null) return null
  return (
    <section
      aria-labelledby="offering-get-help"
      className="flex flex-col gap-4 rounded-2xl bg-primary-50 p-5 sm:flex-row sm:items-center"
    >
      <Assistant size="md" waving />
      <div className="flex flex-col items-start gap-3">
        <div className="flex flex-col gap-1">
          <Heading level={3} id="offering-get-help">
            Get help
          </Heading>
          <Paragraph size="sm" tone="muted">
            Your concierge can take care of this for you. Answer a few questions and we'll get
            started.
          </Paragraph>
        </div>
        <Button
          icon={<LifeBuoy />}
          // The label is the admin's: a long one wraps inside the button, a long word too.
          className="max-w-full wrap-anywhere"
          onClick={() => {
            const answer = offering.request_survey_answer
            requestDrawer.open({
              surveyId,
              surveyName: offering.request_survey_name ?? undefined,
              offeringId: offering.id,
              onOfferingGone: refreshCatalogue,
              ...(answer
                ? { answer: { questionId: answer.question_id, value: answer.value } }
                : {}),
            })
          }}
        >
          {cta}
        </Button>
      </div>
    </section>
  )
}

function HeaderSkeleton() {
  return (
    <SkeletonGroup label="Loading offering details" className="flex flex-col gap-4">
      <Skeleton className="h-16 w-44" />
      <Skeleton className="h-8 w-3/4" />
      <Skeleton className="h-5 w-1/2" />
    </SkeletonGroup>
  )
}

function SectionsSkeleton() {
  return (
    <SkeletonGroup label="Loading offering details" className="flex flex-col gap-6">
      {[4, 3].map((lines) => (
        <div key={lines} className="flex flex-col gap-3 border-t border-line pt-6">
          <Skeleton className="h-6 w-1/3" />
          <Skeleton shape="text" lines={lines} />
        </div>
      ))}
    </SkeletonGroup>
  )
}

/**
 * The offering is gone for this person: the lists behind are fetched again, so its card goes
 * too. Not the details: fetched again, they would show their skeleton, then this again.
 */
function NotAvailable({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient()
  useEffect(() => {
    void queryClient.invalidateQueries({ queryKey: offeringKeys.lists() })
  }, [queryClient])
  return (
    <div className="flex flex-col items-center gap-4 py-10 text-center">
      <Assistant size="lg" />
      <Heading level={2}>This offering isn't available</Heading>
      <Paragraph tone="muted" className="max-w-sm">
        It may have ended, or it isn't part of your benefits and offers. Have a look at the others
        instead.
      </Paragraph>
      <Button variant="secondary" onClick={onClose}>
        Back to benefits & offers
      </Button>
    </div>
  )
}
