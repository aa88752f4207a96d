import { render, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { describe, expect, it, vi } from 'vitest'
import { PhoneInput, TextInput } from '@/design-system'
import { useSchemaForm } from './useSchemaForm'
import { email, matches, required, schema } from './validation'

type Values = { phone: string; email: string; city: string }

const check = schema<Values>(
  {
    phone: [matches(/^\d{10}$/, 'Phone invalid')],
    email: [required('Email required'), email('Email invalid')],
  },
  { trim: ['email', 'city'] },
)

function Form({
  onValid,
  defaults,
  serverError,
}: {
  onValid: (values: Values) => void
  defaults?: Partial<Values>
  serverError?: string
}) {
  const { field, controlledField, watch, errors, setError, submitting, onSubmit } = useSchemaForm(
    check,
    (values) => {
      if (serverError) setError('email', serverError)
      else onValid(values)
    },
    defaults,
  )
  const phone = controlledField('phone')
  const city = watch().city ?? ''
  return (
    <form noValidate onSubmit={onSubmit}>
      <PhoneInput
        label="Phone"
        required
        name={phone.name}
        value={phone.value}
        onValueChange={phone.onChange}
        error={errors.phone}
      />
      <TextInput label="Email" type="email" required error={errors.email} {...field('email')} />
      <TextInput label="City" error={errors.city} {...field('city')} />
      <output aria-label="City as typed">{city}</output>
      <button type="submit" disabled={submitting}>
        Save
      </button>
    </form>
  )
}

function renderForm(props: Partial<Parameters<typeof Form>[0]> = {}) {
  const onValid = vi.fn()
  const user = userEvent.setup()
  render(<Form onValid={onValid} {...props} />)
  const save = () => user.click(screen.getByRole('button', { name: 'Save' }))
  return { user, onValid, save }
}

describe('useSchemaForm', () => {
  it('§5 forms: nothing is sent while a field is invalid; then the schema’s values, trimmed', async () => {
    const { user, onValid, save } = renderForm()
    await save()
    expect(await screen.findByText('Email required')).toBeInTheDocument()
    expect(onValid).not.toHaveBeenCalled()
    await user.type(screen.getByLabelText('Phone'), '5551234567')
    await user.type(screen.getByLabelText('Email'), ' dana@example.com ')
    await user.type(screen.getByLabelText('City (optional)'), ' Springfield')
    await save()
    expect(onValid).toHaveBeenCalledWith({
      phone: '5551234567',
      email: 'dana@example.com',
      city: 'Springfield',
    })
  })

  it('§5 forms: a controlled field (the phone input) takes the focus when it is the first invalid field', async () => {
    const { user, save } = renderForm()
    await user.type(screen.getByLabelText('Phone'), '555')
    await save()
    expect(await screen.findByText('Phone invalid')).toBeInTheDocument()
    expect(screen.getByText('Email required')).toBeInTheDocument()
    const phone = screen.getByLabelText('Phone')
    expect(phone).toHaveFocus()
    expect(phone).toHaveAttribute('aria-invalid', 'true')
    expect(phone).toHaveAccessibleDescription('Phone invalid')
    await user.type(phone, '1234567')
    await waitFor(() => expect(screen.queryByText('Phone invalid')).not.toBeInTheDocument())
    expect(phone).not.toHaveAttribute('aria-invalid')
    await save()
    expect(screen.getByLabelText('Email')).toHaveFocus()
  })

  it('§5 forms: a controlled field starts from its default and submits the form’s value (digits), not the masked text', async () => {
    const { user, onValid, save } = renderForm({ defaults: { phone: '5551234567', city: 'Paris' } })
    expect(screen.getByLabelText('Phone')).toHaveValue('(555) 123-4567')
    expect(screen.getByLabelText('City (optional)')).toHaveValue('Paris')
    await user.type(screen.getByLabelText('Email'), 'dana@example.com')
    await save()
    expect(onValid).toHaveBeenCalledWith({
      phone: '5551234567',
      email: 'dana@example.com',
      city: 'Paris',
    })
  })

  it('§8 form errors: a server error shows on its field and clears once that field changes', async () => {
    const { user, save } = renderForm({
      defaults: { phone: '5551234567' },
      serverError: 'This email is already registered.',
    })
    await user.type(screen.getByLabelText('Email'), 'dana@example.com')
    await save()
    const emailField = screen.getByLabelText('Email')
    expect(await screen.findByText('This email is already registered.')).toBeInTheDocument()
    expect(emailField).toHaveAttribute('aria-invalid', 'true')
    expect(emailField).toHaveAccessibleDescription('This email is already registered.')
    expect(emailField).not.toHaveFocus()
    await user.type(screen.getByLabelText('City (optional)'), 'Paris')
    expect(screen.getByText('This email is already registered.')).toBeInTheDocument()
    await user.type(emailField, 'x')
    await waitFor(() =>
      expect(screen.queryByText('This email is already registered.')).not.toBeInTheDocument(),
    )
    expect(emailField).not.toHaveAttribute('aria-invalid')
  })

  it('§5 onboarding contact info: a form reads its values as they are typed (watch)', async () => {
    const { user } = renderForm({ defaults: { city: 'Paris' } })
    const shown = screen.getByRole('status', { name: 'City as typed' })
    expect(shown).toHaveTextContent('Paris')
    await user.clear(screen.getByLabelText('City (optional)'))
    expect(shown).toHaveTextContent('')
    await user.type(screen.getByLabelText('City (optional)'), 'Lyon')
    expect(shown).toHaveTextContent('Lyon')
  })
})
