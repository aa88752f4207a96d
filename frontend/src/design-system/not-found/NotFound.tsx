import { Home } from 'lucide-react'
import { ASSISTANT_NAME, Assistant } from '../assistant'
import { Button } from '../button'
import { Heading } from '../heading'
import { Paragraph } from '../text'

/** NotFound (spec §2): any unknown path. */
export function NotFound() {
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-canvas px-6 py-16 text-center">
      <div className="flex max-w-md flex-col items-center gap-5">
        <div className="relative">
          <span
            aria-hidden="true"
            className="absolute -top-3 -right-6 rotate-12 text-5xl font-bold tracking-tight text-accent-300"
          >
            404
          </span>
          <Assistant size="lg" title={ASSISTANT_NAME} />
        </div>
        <Heading level={1} size="lg">
          Oops! We can't find that page.
        </Heading>
        <Paragraph tone="muted" size="lg">
          The page you're looking for seems to have wandered off.
        </Paragraph>
        <Button to="/" icon={<Home />}>
          Go to Home
        </Button>
      </div>
    </main>
  )
}

export default NotFound
