import type { ReactNode } from 'react'
import { Heading, Paragraph } from '@/design-system'

/** The title block at the top of each sign-in family page. */
export function AuthHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-2">
      <Heading level={1} size="lg">
        {title}
      </Heading>
      {children ? (
        <Paragraph tone="muted" size="md">
          {children}
        </Paragraph>
      ) : null}
    </header>
  )
}
