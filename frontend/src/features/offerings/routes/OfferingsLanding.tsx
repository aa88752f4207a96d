import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'

/** OfferingsLanding (placeholder). */
export default function OfferingsLanding() {
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Benefits & Offers">
        Your benefits and exclusive partner offers, all in one place.
      </PageHeader>
      <ComingSoon title="Benefits & Offers are coming soon">
        Soon you’ll be able to browse your benefits and partner offers here.
      </ComingSoon>
    </div>
  )
}
