import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'

/** Requests (placeholder). */
export default function Requests() {
  return (
    <div className="flex flex-col gap-8">
      <PageHeader title="Requests">Everything you’ve asked your concierge to handle.</PageHeader>
      <ComingSoon title="Your requests will live here">
        Soon you’ll be able to follow every request, from the queue to done.
      </ComingSoon>
    </div>
  )
}
