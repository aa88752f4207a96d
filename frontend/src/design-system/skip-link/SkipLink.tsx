import type { ReactNode } from 'react'
import { cx } from '../utils'

const MAIN_CONTENT_ID = 'main-content'

/** 'Skip to content': the first focusable element, visible only on keyboard focus. */
export function SkipLink({ target = MAIN_CONTENT_ID }: { target?: string }) {
  return (
    <a
      href={`#${target}`}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-modal focus:rounded-full focus:bg-primary-700 focus:px-5 focus:py-2.5 focus:font-semibold focus:text-white focus:shadow-lg focus:outline-2 focus:outline-offset-2 focus:outline-focus"
    >
      Skip to content
    </a>
  )
}

/** The page's main landmark: where the skip link lands (focusable by script only). */
export function MainContent({ className, children }: { className?: string; children: ReactNode }) {
  return (
    <main
      id={MAIN_CONTENT_ID}
      tabIndex={-1}
      className={cx('mx-auto w-full flex-1 outline-none', className)}
    >
      {children}
    </main>
  )
}
