import { act, screen } from '@testing-library/react'
import { describe, expect, it, vi } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { useDrawerHistory } from './useDrawerHistory'

function Page() {
  const drawer = useDrawerHistory<{ title: string }>('note')
  return (
    <>
      <button type="button" onClick={() => drawer.open({ title: 'A note' })}>
        Open
      </button>
      <button
        type="button"
        onClick={() => {
          drawer.close()
          drawer.close()
        }}
      >
        Close twice
      </button>
      <p>{drawer.value ? `Showing ${drawer.value.title}` : 'Closed'}</p>
    </>
  )
}

async function pageWithOneBehind() {
  const view = renderWithProviders(<Page />, { route: '/before', path: '/*' })
  await act(() => view.router.navigate('/page'))
  return view
}

describe('useDrawerHistory', () => {
  it('a second close before the first has landed (a double click) steps back once: the page stays', async () => {
    const { user, router } = await pageWithOneBehind()
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(await screen.findByText('Showing A note')).toBeInTheDocument()

    await user.click(screen.getByRole('button', { name: 'Close twice' }))

    expect(await screen.findByText('Closed')).toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/page')
  })

  it("opening keeps the page's own entry state beside the drawer, and Back gives it back as it was", async () => {
    const view = renderWithProviders(<Page />, {
      route: '/page',
      path: '/*',
      state: { from: 'account' },
    })
    await view.user.click(screen.getByRole('button', { name: 'Open' }))
    await screen.findByText('Showing A note')
    expect(view.router.state.location.state).toMatchObject({ from: 'account' })

    await act(() => view.router.navigate(-1))

    expect(await screen.findByText('Closed')).toBeInTheDocument()
    expect(view.router.state.location.state).toEqual({ from: 'account' })
  })

  it('an entry left from before a reload steps back to the page, so the next Back leaves it', async () => {
    const { router } = await pageWithOneBehind()
    const leftBehind = { drawer: { name: 'note', opening: 'before-a-reload-1' } }

    await act(() => router.navigate('/page', { state: leftBehind }))

    expect(await screen.findByText('Closed')).toBeInTheDocument()
    await vi.waitFor(() => expect(router.state.location.state).toBeNull())
    await act(() => router.navigate(-1))
    expect(router.state.location.pathname).toBe('/before')
  })
})
