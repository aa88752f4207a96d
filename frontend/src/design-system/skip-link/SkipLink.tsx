/** 'Skip to content': the first focusable element, visible only on keyboard focus. */
export function SkipLink({ target = 'main-content' }: { target?: string }) {
  return (
    <a
      href={`#${target}`}
      className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-modal focus:rounded-full focus:bg-primary-700 focus:px-5 focus:py-2.5 focus:font-semibold focus:text-white focus:shadow-lg focus:outline-2 focus:outline-offset-2 focus:outline-focus"
    >
      Skip to content
    </a>
  )
}
