import { ArrowLeft } from 'lucide-react'
import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'
import { Button } from '@/design-system'

/** Request (placeholder). */
export default function Request() {
  return (
    <div className="flex flex-col gap-8">
      <Button to="/requests" variant="tertiary" size="sm" icon={<ArrowLeft />} className="self-start">
        Back to requests
      </Button>
      <PageHeader title="Request" />
      <ComingSoon title="Request details are on the way">
        Soon you’ll see the status of this request and chat with your concierge here.
      </ComingSoon>
    </div>
  )
}
