import { ArrowLeft } from 'lucide-react'
import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'
import { Button } from '@/design-system'

/** OfferingsFull (placeholder). */
export default function OfferingsFull() {
  return (
    <div className="flex flex-col gap-8">
      <Button
        to="/benefits-and-offers"
        variant="tertiary"
        size="sm"
        icon={<ArrowLeft />}
        className="self-start"
      >
        Benefits & Offers
      </Button>
      <PageHeader title="All benefits & offers" />
      <ComingSoon title="The full catalogue is coming soon">
        Soon you’ll be able to filter every benefit and offer by category here.
      </ComingSoon>
    </div>
  )
}
