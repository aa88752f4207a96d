import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { schema } from '@/lib/validation'
import { TextInput, type TextInputType, toNumberOrNull } from './TextInput'

type Values = { email: string; note: string }
const noRules = schema<Values>({})

function Form({ onSubmit }: { onSubmit: (values: unknown) => void }) {
  const form = useSchemaForm(noRules, onSubmit)
  return (
    <form onSubmit={form.onSubmit}>
      <TextInput label="Email" type="email" required {...form.field('email')} />
      <TextInput label="Note" type="textarea" {...form.field('note')} />
      <button type="submit">Send</button>
    </form>
  )
}

describe('TextInput', () => {
  it("§5 text input: a non-required field has ' (optional)' appended to its label", () => {
    render(
      <>
        <TextInput label="Email" name="email" type="email" required />
        <TextInput label="Address line 2" name="line2" />
      </>,
    )
    const email = screen.getByLabelText('Email')
    expect(email).toHaveAttribute('type', 'email')
    expect(email).toHaveAttribute('aria-required', 'true')
    expect(screen.getByLabelText('Address line 2 (optional)')).not.toHaveAttribute('aria-required')
  })

  it('§5 text input: an error message under a field marks it invalid and describes it', () => {
    render(
      <TextInput label="Email" name="email" required error="Please enter a valid email address" />,
    )
    const input = screen.getByLabelText('Email')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('Please enter a valid email address')
  })

  it('§5 text input: no error → not invalid, no description', () => {
    render(<TextInput label="Email" name="email" required />)
    const input = screen.getByLabelText('Email')
    expect(input).not.toHaveAttribute('aria-invalid')
    expect(input).not.toHaveAttribute('aria-describedby')
  })

  it.each(['date', 'email', 'password', 'search', 'tel', 'text', 'url'] as TextInputType[])(
    '§5 text input: type %s renders an <input> of that type',
    (type) => {
      render(<TextInput label="Field" name="f" type={type} required />)
      expect(screen.getByLabelText('Field')).toHaveAttribute('type', type)
    },
  )

  it('§5 text input: textarea renders a <textarea>', async () => {
    render(<TextInput label="Message" name="body" type="textarea" required />)
    const box = screen.getByLabelText('Message')
    expect(box.tagName).toBe('TEXTAREA')
    await userEvent.type(box, 'line one{enter}line two')
    expect(box).toHaveValue('line one\nline two')
  })

  it('§5 text input: number is a text field with a numeric keyboard and numeric conversion', async () => {
    const onValueChange = vi.fn()
    render(
      <TextInput label="Age" name="age" type="number" required onValueChange={onValueChange} />,
    )
    const input = screen.getByLabelText('Age')
    expect(input).toHaveAttribute('type', 'text')
    expect(input).toHaveAttribute('inputmode', 'numeric')
    await userEvent.type(input, '42')
    expect(onValueChange).toHaveBeenLastCalledWith(42)
    await userEvent.clear(input)
    expect(onValueChange).toHaveBeenLastCalledWith(null)
  })

  it('§5 text input: toNumberOrNull converts text', () => {
    expect(toNumberOrNull('12')).toBe(12)
    expect(toNumberOrNull(' 1,200.5 ')).toBe(1200.5)
    expect(toNumberOrNull('')).toBeNull()
    expect(toNumberOrNull('abc')).toBeNull()
  })

  it('§5 text input: password can be revealed with an accessible toggle', async () => {
    render(<TextInput label="Password" name="password" type="password" required />)
    const input = screen.getByLabelText('Password')
    const toggle = screen.getByRole('button', { name: 'Show password' })
    expect(toggle).toHaveAttribute('aria-pressed', 'false')
    await userEvent.click(toggle)
    expect(input).toHaveAttribute('type', 'text')
    expect(toggle).toHaveAttribute('aria-pressed', 'true')
  })

  it("§5 text input: works with a form's field (name, default value, onChange)", async () => {
    const onSubmit = vi.fn()
    render(<Form onSubmit={onSubmit} />)
    await userEvent.type(screen.getByLabelText('Email'), 'ann@example.com')
    await userEvent.type(screen.getByLabelText('Note (optional)'), 'hello')
    await userEvent.click(screen.getByRole('button', { name: 'Send' }))
    expect(onSubmit).toHaveBeenCalledWith({ email: 'ann@example.com', note: 'hello' })
  })
})
