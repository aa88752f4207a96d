/**
 * A request survey as a button that begins the request in the drawer (spec §2 Dashboard 'Request
 * ideas', RequestCategory). `size="sm"` is the compact Dashboard row, `lg` the category tile.
 */
import { ChevronRight } from 'lucide-react'
import { cx, focusRing } from '@/design-system'
import { useRequestDrawer } from '../requestDrawer'
import type { RequestSurvey } from '../surveys'

const SIZES = {
  sm: {
    button:
      'flex min-h-11 w-full items-center justify-between gap-3 rounded-xl border border-line bg-canvas px-4 py-2.5 text-start text-sm font-semibold text-ink',
    icon: 'size-4 shrink-0 text-ink-muted',
  },
  lg: {
    button:
      'flex min-h-16 w-full items-center justify-between gap-3 rounded-2xl border border-line bg-surface px-5 py-4 text-start text-base font-semibold text-ink shadow-xs',
    icon: 'size-5 shrink-0 text-ink-muted',
  },
} as const

export function SurveyButton({
  survey,
  size,
}: {
  survey: Pick<RequestSurvey, 'id' | 'name'>
  size: 'sm' | 'lg'
}) {
  const drawer = useRequestDrawer()
  return (
    <button
      type="button"
      onClick={() => drawer.open({ surveyId: survey.id, surveyName: survey.name })}
      className={cx(
        SIZES[size].button,
        'transition-colors hover:border-primary-400 hover:bg-primary-50 motion-reduce:transition-none',
        focusRing,
      )}
    >
      <span>{survey.name}</span>
      <ChevronRight aria-hidden="true" className={SIZES[size].icon} />
    </button>
  )
}
