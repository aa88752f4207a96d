import { ArrowLeft } from 'lucide-react'
import { ComingSoon } from '@/app/shell/ComingSoon'
import { PageHeader } from '@/app/shell/PageHeader'
import { Button } from '@/design-system'

/** RequestCategory (placeholder). */
export default function RequestCategory() {
  return (
    <div className="flex flex-col gap-8">
      <Button to="/dashboard" variant="tertiary" size="sm" icon={<ArrowLeft />} className="self-start">
        Back to dashboard
      </Button>
      <PageHeader title="Request category" />
      <ComingSoon title="Request ideas are on the way">
        Soon you’ll find every request you can start in this category here.
      </ComingSoon>
    </div>
  )
}
