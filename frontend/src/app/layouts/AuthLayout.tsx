import { lazy, Suspense, useState } from 'react'
import { Outlet, Link as RouterLink } from 'react-router'
import { Logo } from '@/design-system'
import { type CustomerQuote, pickQuote } from '@/features/auth/components/quotes'
import { config } from '@/lib/config'
import { LG_UP, useMediaQuery } from '@/lib/useMediaQuery'

/** Wide screens only, so phones never load it (index.html preloads it for wide screens). */
const AuthIllustration = lazy(async () => ({
  default: (await import('@/features/auth/components/AuthIllustration')).AuthIllustration,
}))

/**
 * The illustrated layout of the sign-in family of pages (spec §2): on wide screens an
 * illustration panel with a random customer quote beside the form column; one column on mobile.
 */
export function AuthLayout() {
  const [quote] = useState(pickQuote)
  const wide = useMediaQuery(LG_UP)
  return (
    <div className="min-h-dvh bg-canvas lg:grid lg:grid-cols-[minmax(0,5fr)_minmax(0,6fr)]">
      <aside
        aria-label="What our members say"
        className="relative hidden overflow-hidden bg-primary-700 text-white lg:flex lg:flex-col lg:justify-between lg:gap-10 lg:p-12 2xl:p-16"
      >
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -left-24 size-80 rounded-full bg-primary-600/60 blur-3xl"
        />
        <p className="relative max-w-sm text-2xl font-semibold leading-snug tracking-tight text-primary-50 2xl:text-3xl">
          Your to-do list, handled by a real person.
        </p>
        {/* The illustration's own proportions (400 by 320), kept while it loads. */}
        <div className="relative mx-auto aspect-[5/4] w-full max-w-md 2xl:max-w-lg">
          {wide && (
            <Suspense fallback={null}>
              <AuthIllustration className="size-full" />
            </Suspense>
          )}
        </div>
        <QuoteFigure quote={quote} tone="dark" />
      </aside>

      <div className="flex min-h-dvh flex-col px-5 py-6 sm:px-10 sm:py-10">
        <header className="self-start">
          <RouterLink
            to="/sign-in"
            className="inline-block rounded-md focus-visible:outline-solid focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-focus"
          >
            <Logo productName={config.productName} />
          </RouterLink>
        </header>
        <main className="mx-auto flex w-full max-w-md flex-1 flex-col justify-center py-10">
          <Outlet />
        </main>
        <aside aria-label="What our members say" className="mx-auto w-full max-w-md lg:hidden">
          <QuoteFigure quote={quote} tone="light" />
        </aside>
      </div>
    </div>
  )
}

function QuoteFigure({ quote, tone }: { quote: CustomerQuote; tone: 'dark' | 'light' }) {
  const dark = tone === 'dark'
  return (
    <figure
      className={
        dark
          ? 'relative flex flex-col gap-4 rounded-3xl bg-primary-800/70 p-6 ring-1 ring-white/10'
          : 'flex flex-col gap-3 rounded-2xl border border-line bg-surface p-5 shadow-xs'
      }
    >
      <blockquote className={dark ? 'text-lg leading-relaxed text-white' : 'text-sm text-ink'}>
        <p>“{quote.quote}”</p>
      </blockquote>
      <figcaption className={dark ? 'text-sm text-primary-100' : 'text-sm text-ink-muted'}>
        <span className={dark ? 'font-semibold text-white' : 'font-semibold text-ink'}>
          {quote.name}
        </span>
        , {quote.company}
      </figcaption>
    </figure>
  )
}
