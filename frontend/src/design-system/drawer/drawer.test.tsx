import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { Drawer, type DrawerPlacement } from './Drawer'

function mask() {
  const el = document.querySelector('[data-drawer-mask]')
  if (!el) throw new Error('no mask')
  return el as HTMLElement
}

function Host() {
  const [open, setOpen] = useState(true)
  const [confirming, setConfirming] = useState(false)
  return (
    <>
      <Drawer
        isOpen={open}
        onClose={() => setOpen(false)}
        onRequestClose={() => setConfirming(true)}
        title="Request"
      >
        <p>Question 1</p>
        {confirming ? (
          <div>
            <p>Wait! You're almost there. Are you sure you want to stop now?</p>
            <button type="button" onClick={() => setConfirming(false)}>
              No, stay
            </button>
            <button type="button" onClick={() => setOpen(false)}>
              Yes, cancel
            </button>
          </div>
        ) : null}
      </Drawer>
      <p>{open ? 'open' : 'closed'}</p>
    </>
  )
}

describe('Drawer', () => {
  it('§2 side drawer: an open drawer is a modal dialog named by its title, with a scrollable body', () => {
    render(
      <Drawer isOpen onClose={() => {}} title="Help me with my benefits">
        <p>Body text</p>
      </Drawer>,
    )
    const dialog = screen.getByRole('dialog', { name: 'Help me with my benefits' })
    expect(dialog).toHaveTextContent('Body text')
    expect(dialog.querySelector('[data-drawer-body]')).toHaveClass('overflow-y-auto')
  })

  it('§2 side drawer: closed drawer renders nothing', () => {
    render(
      <Drawer isOpen={false} onClose={() => {}} title="Hidden">
        x
      </Drawer>,
    )
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
  })

  it('§2 side drawer: dismissible by Escape', async () => {
    const onClose = vi.fn()
    render(
      <Drawer isOpen onClose={onClose} title="Drawer">
        x
      </Drawer>,
    )
    await userEvent.keyboard('{Escape}')
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('§2 side drawer: dismissible by mask click', async () => {
    const onClose = vi.fn()
    render(
      <Drawer isOpen onClose={onClose} title="Drawer">
        x
      </Drawer>,
    )
    await userEvent.click(mask())
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it("§2 side drawer: dismissible by the close icon (labelled 'Close')", async () => {
    const onClose = vi.fn()
    render(
      <Drawer isOpen onClose={onClose} title="Drawer">
        x
      </Drawer>,
    )
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('§2 side drawer: clicks inside the drawer do not close it', async () => {
    const onClose = vi.fn()
    render(
      <Drawer isOpen onClose={onClose} title="Drawer">
        <p>Inside</p>
      </Drawer>,
    )
    await userEvent.click(screen.getByText('Inside'))
    expect(onClose).not.toHaveBeenCalled()
  })

  it('§2 side drawer: Escape and mask disabled when not dismissible; close icon still works', async () => {
    const onClose = vi.fn()
    render(
      <Drawer isOpen onClose={onClose} title="Drawer" isDismissable={false}>
        x
      </Drawer>,
    )
    await userEvent.keyboard('{Escape}')
    await userEvent.click(mask())
    expect(onClose).not.toHaveBeenCalled()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('§4 request drawer: onRequestClose intercepts closing so the host can confirm', async () => {
    render(<Host />)
    await userEvent.keyboard('{Escape}')
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    expect(
      screen.getByText("Wait! You're almost there. Are you sure you want to stop now?"),
    ).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'No, stay' }))
    expect(screen.getByRole('dialog')).toBeInTheDocument()
    await userEvent.click(screen.getByRole('button', { name: 'Close' }))
    await userEvent.click(screen.getByRole('button', { name: 'Yes, cancel' }))
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument()
    expect(screen.getByText('closed')).toBeInTheDocument()
  })

  it('§9 side drawer: nav is 275px and panel 660px wide on wide screens, full width on small ones', () => {
    const { rerender } = render(
      <Drawer isOpen onClose={() => {}} title="Menu" variant="nav">
        x
      </Drawer>,
    )
    const panelOf = () => screen.getByRole('dialog').parentElement as HTMLElement
    expect(panelOf()).toHaveClass('w-full', 'sm:max-w-drawer-nav')
    rerender(
      <Drawer isOpen onClose={() => {}} title="Details">
        x
      </Drawer>,
    )
    expect(panelOf()).toHaveClass('w-full', 'sm:max-w-drawer-panel')
  })

  it.each(['right', 'left', 'top', 'bottom'] as DrawerPlacement[])(
    '§2 side drawer: placement %s slides in from that side (motion-safe only)',
    (placement) => {
      render(
        <Drawer isOpen onClose={() => {}} title="Drawer" placement={placement}>
          x
        </Drawer>,
      )
      const panel = screen.getByRole('dialog').parentElement as HTMLElement
      expect(panel.className).toContain(`motion-safe:data-entering:animate-drawer-in-${placement}`)
    },
  )

  it('§2 side drawer: full bleed removes the body padding', () => {
    render(
      <Drawer isOpen onClose={() => {}} title="Drawer" fullBleed>
        x
      </Drawer>,
    )
    expect(screen.getByRole('dialog').querySelector('[data-drawer-body]')).toHaveClass('p-0')
  })

  it('§2 side drawer: without a visible title it still has an accessible name', () => {
    render(
      <Drawer isOpen onClose={() => {}} aria-label="Main menu" variant="nav" placement="left">
        x
      </Drawer>,
    )
    expect(screen.getByRole('dialog', { name: 'Main menu' })).toBeInTheDocument()
  })
})
