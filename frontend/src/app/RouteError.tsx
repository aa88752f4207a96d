import { useEffect } from 'react'
import { isRouteErrorResponse, useLocation, useRouteError } from 'react-router'
import { config } from '@/lib/config'
import { reportError } from '@/lib/errorReporting'

const RELOAD_KEY = 'chunkReloadedFor'

export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return /dynamically imported module|Importing a module script failed|error loading dynamically imported module|ChunkLoadError/i.test(
    `${error.name} ${error.message}`,
  )
}

/** Route error slot; a screen whose code failed to load reloads the target path in full. */
export function RouteError() {
  const error = useRouteError()
  const location = useLocation()
  const target = location.pathname + location.search
  const chunkFailed = isChunkLoadError(error)

  useEffect(() => {
    if (chunkFailed && window.sessionStorage.getItem(RELOAD_KEY) !== target) {
      window.sessionStorage.setItem(RELOAD_KEY, target)
      window.location.assign(target)
      return
    }
    if (!isRouteErrorResponse(error) && !chunkFailed) reportError(error)
  }, [chunkFailed, error, target])

  return (
    <main className="mx-auto flex min-h-dvh max-w-lg flex-col items-center justify-center gap-4 p-6 text-center">
      <h1 className="text-2xl font-semibold text-neutral-900">Something went wrong</h1>
      <p className="text-neutral-600">
        Please reload the page. If it keeps happening, write to{' '}
        <a className="text-primary-700 underline" href={`mailto:${config.supportEmail}`}>
          {config.supportEmail}
        </a>
        .
      </p>
      <a className="rounded-full bg-primary-700 px-5 py-2.5 font-medium text-white" href={target}>
        Reload
      </a>
    </main>
  )
}
