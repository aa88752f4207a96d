import { LogOut } from 'lucide-react'
import type { ReactNode } from 'react'
import { Button, Logo, ProgressBar } from '@/design-system'
import { config } from '@/lib/config'
import { useSignOut } from '@/lib/currentUserQuery'
import { ONBOARDING_STEPS } from '../answers'

/**
 * The onboarding frame: logo, 'Step n of 3' progress and a centred card. No app navigation, but
 * a way out: Sign out.
 */
export function OnboardingLayout({ step, children }: { step: number; children: ReactNode }) {
  const { signingOut, onSignOut } = useSignOut()
  return (
    <div className="flex min-h-dvh flex-col bg-canvas">
      <header className="mx-auto flex w-full max-w-2xl flex-col gap-5 px-5 pt-6 sm:pt-10">
        <div className="flex items-center justify-between gap-3">
          <Logo productName={config.productName} size="sm" />
          <Button
            variant="tertiary"
            size="sm"
            icon={<LogOut />}
            loading={signingOut}
            onClick={onSignOut}
          >
            Sign out
          </Button>
        </div>
        <ProgressBar
          label={`Step ${step} of ${ONBOARDING_STEPS}`}
          value={(step / ONBOARDING_STEPS) * 100}
          showValue={false}
          size="sm"
        />
      </header>
      <main className="mx-auto w-full max-w-2xl flex-1 px-5 py-6 sm:py-10">
        <div className="rounded-3xl border border-line bg-surface p-6 shadow-sm sm:p-10">
          {children}
        </div>
      </main>
    </div>
  )
}
