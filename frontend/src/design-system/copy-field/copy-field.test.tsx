import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { CopyField } from './CopyField'

describe('CopyField (a link or a secret shown once)', () => {
  it('copies the value and says so; focused and selected when just made', async () => {
    const user = userEvent.setup()
    const onCopied = vi.fn()
    render(
      <CopyField
        id="token"
        label="Your new token"
        value="s3cret"
        note="It is shown only this once."
        autoFocus
        onCopied={onCopied}
      />,
    )
    const field = screen.getByRole('textbox', { name: 'Your new token' })
    expect(field).toHaveFocus()
    expect(field).toHaveAccessibleDescription('It is shown only this once.')
    await user.click(screen.getByRole('button', { name: 'Copy Your new token' }))
    expect(await navigator.clipboard.readText()).toBe('s3cret')
    expect(onCopied).toHaveBeenCalledOnce()
  })

  it('selects the value and tells the person to copy it when the clipboard is blocked', async () => {
    const user = userEvent.setup()
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValueOnce(new Error('blocked'))
    const onCopied = vi.fn()
    render(
      <CopyField
        id="link"
        label="Invite link"
        value="https://x.test/j/1"
        buttonText="Copy link"
        onCopied={onCopied}
      />,
    )
    await user.click(screen.getByRole('button', { name: 'Copy link' }))
    expect(
      await screen.findByText(
        'Copying is blocked here: the text is selected, copy it with your keyboard.',
      ),
    ).toBeInTheDocument()
    const field = screen.getByRole<HTMLInputElement>('textbox', { name: 'Invite link' })
    expect([field.selectionStart, field.selectionEnd]).toEqual([0, 'https://x.test/j/1'.length])
    expect(onCopied).not.toHaveBeenCalled()
  })
})
