import { ArrowLeft } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button } from '@/design-system'

/** Back (optional) and the primary action at the foot of an onboarding step. */
export function StepActions({ back, children }: { back?: string; children: ReactNode }) {
  return (
    <div className="flex flex-col-reverse gap-3 pt-2 sm:flex-row sm:items-center sm:justify-between">
      {back ? (
        <Button to={back} variant="tertiary" icon={<ArrowLeft />}>
          Back
        </Button>
      ) : (
        <span />
      )}
      {children}
    </div>
  )
}
