import { render, waitFor } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { isChunkLoadError, RouteError } from './RouteError'

function renderFailingRoute(error: Error) {
  const router = createMemoryRouter(
    [
      {
        path: '/requests',
        errorElement: <RouteError />,
        lazy: async () => {
          throw error
        },
      },
    ],
    { initialEntries: ['/requests?tab=Completed'] },
  )
  return render(<RouterProvider router={router} />)
}

describe('§2 a screen whose code fails to load reloads the target path in full', () => {
  it('recognises the browsers’ dynamic-import failures', () => {
    expect(
      isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /x.js')),
    ).toBe(true)
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true)
    expect(isChunkLoadError(new Error('Something else'))).toBe(false)
  })

  it('reloads the target path once for a failed chunk', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    const view = renderFailingRoute(new TypeError('Failed to fetch dynamically imported module'))
    await view.findByText('Something went wrong')
    await waitFor(() => expect(assign).toHaveBeenCalledWith('/requests?tab=Completed'))
    vi.unstubAllGlobals()
  })

  it('shows the error slot without reloading for other errors', async () => {
    const assign = vi.fn()
    vi.stubGlobal('location', { ...window.location, assign })
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const view = renderFailingRoute(new Error('boom'))
    await view.findByText('Something went wrong')
    expect(assign).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })
})
