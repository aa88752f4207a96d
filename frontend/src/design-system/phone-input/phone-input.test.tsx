import { fireEvent, render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { useState } from 'react'
import { describe, expect, it, vi } from 'vitest'
import { useSchemaForm } from '@/lib/useSchemaForm'
import { schema } from '@/lib/validation'
import { applyMask, formatPhone, isMaskComplete, maskPlaceholder, unmask } from './mask'
import { PhoneInput } from './PhoneInput'

const PHONE = '(999) 999-9999'

function Host() {
  const [value, setValue] = useState('5551234567')
  return (
    <>
      <PhoneInput
        label="Phone"
        name="phone"
        required
        value={value}
        onChange={(e) => setValue(e.target.value)}
      />
      <output>{value}</output>
    </>
  )
}

const noRules = schema<{ a: string; b: string }>({})

function Form({ onSubmit }: { onSubmit: (values: unknown) => void }) {
  const form = useSchemaForm(noRules, onSubmit, { a: '', b: '' })
  const work = form.controlledField('b')
  return (
    <form onSubmit={form.onSubmit}>
      <PhoneInput label="Home phone" required {...form.field('a')} />
      <PhoneInput
        label="Work phone"
        required
        name={work.name}
        value={work.value}
        onValueChange={(_digits, masked) => work.onChange(masked)}
      />
      <button type="submit">Save</button>
    </form>
  )
}

describe('applyMask / unmask (pure)', () => {
  it('§5 phone mask: formats raw digits with (999) 999-9999 and placeholder "_"', () => {
    expect(applyMask(PHONE, '5551234567')).toBe('(555) 123-4567')
    expect(applyMask(PHONE, '5551234')).toBe('(555) 123-4___')
    expect(applyMask(PHONE, '5')).toBe('(5__) ___-____')
  })

  it('§5 phone mask: empty input stays empty', () => {
    expect(applyMask(PHONE, '')).toBe('')
    expect(applyMask(PHONE, '(___) ___-____')).toBe('')
  })

  it('§5 phone mask: re-formats an already masked or differently punctuated value', () => {
    expect(applyMask(PHONE, '(555) 123-4567')).toBe('(555) 123-4567')
    expect(applyMask(PHONE, '555-123-4567')).toBe('(555) 123-4567')
    expect(applyMask(PHONE, '(555) 12_3-____')).toBe('(555) 123-____')
  })

  it('§5 phone mask: drops characters that do not fit and cuts off extra ones', () => {
    expect(applyMask(PHONE, '55a5x1234567890')).toBe('(555) 123-4567')
  })

  it('§5 mask: 9 = digit, a = letter, * = alphanumeric; custom placeholder character', () => {
    expect(applyMask('aa-99-**', 'AB12c3')).toBe('AB-12-c3')
    expect(applyMask('aa-99-**', '1A2B')).toBe('AB-__-__')
    expect(applyMask('999 999', '12', '#')).toBe('12# ###')
    expect(maskPlaceholder(PHONE)).toBe('(___) ___-____')
    expect(maskPlaceholder('99/99', '-')).toBe('--/--')
  })

  it('§5 mask: unmask returns the raw characters', () => {
    expect(unmask(PHONE, '(555) 123-4___')).toBe('5551234')
    expect(unmask(PHONE, '(555) 123-4567')).toBe('5551234567')
    expect(unmask(PHONE, '')).toBe('')
    expect(unmask('aa-99', 'AB-1_')).toBe('AB1')
  })

  it('§9 MFA phone: complete only with 10 digits', () => {
    expect(isMaskComplete(PHONE, '(555) 123-4567')).toBe(true)
    expect(isMaskComplete(PHONE, '(555) 123-456_')).toBe(false)
  })
})

describe('formatPhone (pure)', () => {
  it('issue 11: the desk shows a stored phone the way the phone field writes it', () => {
    expect(formatPhone('5551234567')).toBe('(555) 123-4567')
    expect(formatPhone('(555) 123-4567')).toBe('(555) 123-4567')
    expect(formatPhone('+44 20 7946 0958')).toBe('+44 20 7946 0958')
  })
})

describe('PhoneInput', () => {
  it('§5 phone input: formats as you type and reports raw digits and the masked value', async () => {
    const onValueChange = vi.fn()
    render(<PhoneInput label="Phone number" name="phone" required onValueChange={onValueChange} />)
    const input = screen.getByLabelText('Phone number')
    expect(input).toHaveAttribute('type', 'tel')
    expect(input).toHaveAttribute('placeholder', '(___) ___-____')
    await userEvent.type(input, '5551234567')
    expect(input).toHaveValue('(555) 123-4567')
    expect(onValueChange).toHaveBeenLastCalledWith('5551234567', '(555) 123-4567')
  })

  it('§5 phone input: letters are ignored and typing past the end does nothing', async () => {
    render(<PhoneInput label="Phone number" name="phone" required />)
    const input = screen.getByLabelText('Phone number')
    await userEvent.type(input, '55x5abc12345678999')
    expect(input).toHaveValue('(555) 123-4567')
  })

  it('§5 phone input: a number typed or filled in with the US country code keeps all its digits', async () => {
    const onValueChange = vi.fn()
    render(<PhoneInput label="Phone number" name="phone" required onValueChange={onValueChange} />)
    const input = screen.getByLabelText('Phone number')
    await userEvent.type(input, '+1 415 555 0134')
    expect(input).toHaveValue('(415) 555-0134')
    expect(onValueChange).toHaveBeenLastCalledWith('4155550134', '(415) 555-0134')
    await userEvent.clear(input)
    fireEvent.change(input, { target: { value: '1 (415) 555-0135' } })
    expect(input).toHaveValue('(415) 555-0135')
    await userEvent.clear(input)
    await userEvent.type(input, '14155550136')
    expect(input).toHaveValue('(415) 555-0136')
  })

  it('§5 phone input: backspace removes digits, even across the literals', async () => {
    render(<PhoneInput label="Phone number" name="phone" required />)
    const input = screen.getByLabelText('Phone number')
    await userEvent.type(input, '5551')
    expect(input).toHaveValue('(555) 1__-____')
    await userEvent.type(input, '{backspace}')
    expect(input).toHaveValue('(555) ___-____')
    await userEvent.type(input, '{backspace}')
    expect(input).toHaveValue('(55_) ___-____')
    await userEvent.type(input, '{backspace}{backspace}')
    expect(input).toHaveValue('')
  })

  it('§5 phone input: a custom mask and placeholder character', async () => {
    const onValueChange = vi.fn()
    render(
      <PhoneInput
        label="Code"
        name="code"
        mask="aa-999"
        placeholderChar="#"
        required
        onValueChange={onValueChange}
      />,
    )
    const input = screen.getByLabelText('Code')
    expect(input).toHaveAttribute('type', 'text')
    await userEvent.type(input, 'ab1')
    expect(input).toHaveValue('ab-1##')
    expect(onValueChange).toHaveBeenLastCalledWith('ab1', 'ab-1##')
  })

  it('§5 phone input: optional label and error message', () => {
    render(<PhoneInput label="Phone" name="phone" error="Please enter a valid phone number" />)
    const input = screen.getByLabelText('Phone (optional)')
    expect(input).toHaveAttribute('aria-invalid', 'true')
    expect(input).toHaveAccessibleDescription('Please enter a valid phone number')
  })

  it('§5 phone input: controlled value is shown masked', async () => {
    render(<Host />)
    const input = screen.getByLabelText('Phone')
    expect(input).toHaveValue('(555) 123-4567')
    await userEvent.clear(input)
    await userEvent.type(input, '212')
    expect(input).toHaveValue('(212) ___-____')
    expect(screen.getByRole('status')).toHaveTextContent('(212) ___-____')
  })

  it("§5 phone input: works with a form's field and controlled field", async () => {
    const onSubmit = vi.fn()
    render(<Form onSubmit={onSubmit} />)
    await userEvent.type(screen.getByLabelText('Home phone'), '5551234567')
    await userEvent.type(screen.getByLabelText('Work phone'), '2125550000')
    await userEvent.click(screen.getByRole('button', { name: 'Save' }))
    expect(onSubmit).toHaveBeenCalledWith({ a: '(555) 123-4567', b: '(212) 555-0000' })
  })
})
