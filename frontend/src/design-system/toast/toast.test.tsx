import { act, fireEvent, render, screen, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { type ToastOptions, ToastProvider, type ToastSeverity, useToast } from './ToastProvider'

let lastId = ''

function Trigger(props: ToastOptions & { label?: string }) {
  const { toast } = useToast()
  const { label = 'Notify', ...options } = props
  return (
    <button
      type="button"
      onClick={() => {
        lastId = toast(options)
      }}
    >
      {label}
    </button>
  )
}

/** A trigger for a ToastProvider module of its own (imported afresh by a test). */
function OfflineTrigger({ useFreshToast }: { useFreshToast: typeof useToast }) {
  const { toast } = useFreshToast()
  return (
    <button type="button" onClick={() => toast({ message: 'You are offline.' })}>
      Notify
    </button>
  )
}

function region() {
  return screen.getByRole('region', { name: 'Notifications' })
}

describe('Toasts', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('§2 toasts: toast() shows the message in a polite live region and returns a random id', async () => {
    render(
      <ToastProvider>
        <Trigger message="Your password has been updated successfully." severity="success" />
      </ToastProvider>,
    )
    const live = region().querySelector('[aria-live]')
    expect(live).toHaveAttribute('aria-live', 'polite')
    await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
    // The toasts' look loads with the first toast (or once the screen is idle).
    expect(
      await within(region()).findByText('Your password has been updated successfully.'),
    ).toBeInTheDocument()
    expect(typeof lastId).toBe('string')
    expect(lastId.length).toBeGreaterThan(8)
    const first = lastId
    await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
    expect(lastId).not.toBe(first)
    expect(
      within(region()).getAllByText('Your password has been updated successfully.'),
    ).toHaveLength(2)
  })

  it('§2 toasts: each toast has a close button that removes it', async () => {
    render(
      <ToastProvider>
        <Trigger message="Saved" />
      </ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
    expect(within(region()).getByText('Saved')).toBeInTheDocument()
    await userEvent.click(within(region()).getByRole('button', { name: 'Close' }))
    expect(within(region()).queryByText('Saved')).not.toBeInTheDocument()
  })

  it('§9 toasts: a toast sent with autoDismiss disappears after 10 seconds', () => {
    vi.useFakeTimers()
    render(
      <ToastProvider>
        <Trigger message="Auto" autoDismiss label="auto" />
        <Trigger message="Sticky" label="sticky" />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'auto' }))
    fireEvent.click(screen.getByRole('button', { name: 'sticky' }))
    act(() => {
      vi.advanceTimersByTime(9_999)
    })
    expect(screen.getByText('Auto')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(1)
    })
    expect(screen.queryByText('Auto')).not.toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(60_000)
    })
    expect(screen.getByText('Sticky')).toBeInTheDocument()
  })

  it.each(['info', 'success', 'warn', 'error', 'secondary', 'contrast'] as ToastSeverity[])(
    '§2 toasts: severity %s is rendered',
    async (severity) => {
      render(
        <ToastProvider>
          <Trigger message={`A ${severity} toast`} severity={severity} />
        </ToastProvider>,
      )
      await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
      const item = within(region()).getByRole('listitem')
      expect(item).toHaveAttribute('data-severity', severity)
      expect(item).toHaveTextContent(`A ${severity} toast`)
    },
  )

  it('§2 toasts: top-right on sm+ screens, bottom on small ones', () => {
    render(<ToastProvider />)
    const cls = region().className
    expect(cls).toContain('bottom-0')
    expect(cls).toContain('sm:top-0')
    expect(cls).toContain('sm:right-0')
    expect(cls).toContain('sm:bottom-auto')
  })

  it('§2 toasts: useToast outside the provider fails loudly', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => {})
    expect(() => render(<Trigger message="x" />)).toThrow(
      'useToast must be used inside <ToastProvider>',
    )
    spy.mockRestore()
  })

  it('issue 29 toasts: an action button (Undo) runs its action and closes the toast', async () => {
    const onAction = vi.fn()
    const focusInToast: boolean[] = []
    const onDismiss = vi.fn(() => {
      focusInToast.push(!!document.activeElement?.closest('[data-toast]'))
    })
    render(
      <ToastProvider>
        <Trigger
          message="Request completed."
          severity="success"
          action={{ label: 'Undo', onAction }}
          onDismiss={onDismiss}
        />
      </ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
    const undo = await within(region()).findByRole('button', { name: 'Undo' })
    await userEvent.click(undo)
    expect(onAction).toHaveBeenCalledTimes(1)
    expect(onDismiss).toHaveBeenCalledWith('action')
    expect(focusInToast).toEqual([true]) // told while the toast, with focus in it, still shows
    expect(within(region()).queryByText('Request completed.')).not.toBeInTheDocument()
  })

  it('issue 29 toasts: focusAction puts focus on the action; it lasts durationMs; Escape closes it', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true })
    const focusInToast: boolean[] = []
    const onDismiss = vi.fn(() => {
      focusInToast.push(!!document.activeElement?.closest('[data-toast]'))
    })
    render(
      <ToastProvider>
        <Trigger
          message="Request completed."
          autoDismiss
          durationMs={6_000}
          focusAction
          action={{ label: 'Undo', onAction: () => {} }}
          onDismiss={onDismiss}
        />
        <Trigger
          message="Again"
          label="again"
          focusAction
          action={{ label: 'Undo again', onAction: () => {} }}
        />
      </ToastProvider>,
    )
    fireEvent.click(screen.getByRole('button', { name: 'Notify' }))
    const undo = await within(region()).findByRole('button', { name: 'Undo' })
    await vi.waitFor(() => expect(undo).toHaveFocus())
    act(() => {
      vi.advanceTimersByTime(5_900)
    })
    expect(screen.getByText('Request completed.')).toBeInTheDocument()
    act(() => {
      vi.advanceTimersByTime(200)
    })
    expect(screen.queryByText('Request completed.')).not.toBeInTheDocument()
    expect(onDismiss).toHaveBeenCalledWith('timeout')
    expect(focusInToast).toEqual([true])

    fireEvent.click(screen.getByRole('button', { name: 'again' }))
    const again = await within(region()).findByRole('button', { name: 'Undo again' })
    await vi.waitFor(() => expect(again).toHaveFocus())
    fireEvent.keyDown(again, { key: 'Escape' })
    expect(screen.queryByText('Again')).not.toBeInTheDocument()
  })

  it("§2 toasts: when the toasts' look fails to load (offline), the words and Close still show", async () => {
    vi.resetModules()
    vi.doMock('./ToastItems', () => {
      throw new Error('Failed to fetch dynamically imported module')
    })
    const fresh = await import('./ToastProvider')
    render(
      <fresh.ToastProvider>
        <OfflineTrigger useFreshToast={fresh.useToast} />
      </fresh.ToastProvider>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Notify' }))
    expect(await within(region()).findByText('You are offline.')).toBeInTheDocument()
    await userEvent.click(within(region()).getByRole('button', { name: 'Close' }))
    expect(within(region()).queryByText('You are offline.')).not.toBeInTheDocument()
    vi.doUnmock('./ToastItems')
  })
})
