import type { ReactNode } from 'react'
import { ASSISTANT_NAME, Assistant, Heading, Paragraph } from '@/design-system'

/** A friendly empty state for screens that are not built yet, led by the assistant. */
export function ComingSoon({
  title = 'Coming soon',
  children,
  action,
}: {
  title?: string
  children?: ReactNode
  action?: ReactNode
}) {
  return (
    <section className="flex flex-col items-center gap-4 rounded-3xl border border-dashed border-line-strong/60 bg-surface px-6 py-12 text-center sm:py-16">
      <Assistant size="lg" title={ASSISTANT_NAME} />
      <Heading level={2}>{title}</Heading>
      <Paragraph tone="muted" className="max-w-md">
        {children ?? `${ASSISTANT_NAME} is putting the finishing touches on this page. Check back soon!`}
      </Paragraph>
      {action}
    </section>
  )
}
