export function FullPageSpinner() {
  return (
    <div className="flex min-h-dvh items-center justify-center" role="status" aria-live="polite">
      <span className="size-10 animate-spin rounded-full border-4 border-primary-200 border-t-primary-700" />
      <span className="sr-only">Loading</span>
    </div>
  )
}
