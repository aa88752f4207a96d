import type { ReactNode } from 'react'
import { Heading } from '../heading'
import { Paragraph } from '../text'

/** The h1 and optional intro at the top of an app screen. */
export function PageHeader({ title, children }: { title: ReactNode; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-2">
      <Heading level={1} size="lg">
        {title}
      </Heading>
      {children ? <Paragraph tone="muted">{children}</Paragraph> : null}
    </header>
  )
}
