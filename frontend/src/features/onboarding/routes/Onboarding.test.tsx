import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it } from 'vitest'
import { errorResponse } from '@/test/handlers'
import { makeUser, renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import type { OnboardingAnswer } from '../api'
import AboutUs from './AboutUs'
import AboutYou from './AboutYou'
import ContactInfo from './ContactInfo'

function answersOk(answers: OnboardingAnswer[] = []) {
  return http.get(apiUrl('/api/v1/users/onboarding'), () => HttpResponse.json({ answers }))
}

function saveOk(saved: OnboardingAnswer[][]) {
  return http.post(apiUrl('/api/v1/users/onboarding'), async ({ request }) => {
    saved.push(((await request.json()) as { answers: OnboardingAnswer[] }).answers)
    return HttpResponse.json({ success: true })
  })
}

const answerIn = (answers: OnboardingAnswer[], id: number) =>
  answers.find((answer) => answer.answer_id === id)?.value

describe('Onboarding: AboutUs', () => {
  it("§2 onboarding: step 1 of 3 explains the service, '3-4 hours per task', and continues to AboutYou", async () => {
    const { user, router } = renderWithProviders(<AboutUs />, {
      route: '/welcome/about-us',
      user: makeUser({ first_name: 'Ada' }),
    })
    expect(screen.getByRole('progressbar', { name: 'Step 1 of 3' })).toBeInTheDocument()
    expect(screen.getByText(/saves an estimated 3-4 hours per task/)).toBeInTheDocument()
    expect(screen.getByText('Welcome, Ada')).toBeInTheDocument()
    await user.click(screen.getByRole('link', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/about-you'))
  })
})

describe('Onboarding: AboutYou', () => {
  it('§3 onboarding answers: step 2 prefills and saves the five yes/no answers by id', async () => {
    const saved: OnboardingAnswer[][] = []
    server.use(answersOk([{ answer_id: 122, value: true }]), saveOk(saved))
    const { user, router } = renderWithProviders(<AboutYou />, {
      route: '/welcome/about-you',
      user: makeUser(),
    })
    expect(screen.getByRole('progressbar', { name: 'Step 2 of 3' })).toBeInTheDocument()
    const pet = await screen.findByRole('checkbox', { name: 'I have a pet' })
    expect(pet).toBeChecked()
    await user.click(screen.getByRole('checkbox', { name: 'I own a home' }))
    await user.click(screen.getByRole('checkbox', { name: 'I’m a parent' }))
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/contact-info'))
    expect(saved).toHaveLength(1)
    expect(Object.fromEntries(saved[0].map((a) => [a.answer_id, a.value]))).toEqual({
      132: true,
      134: false,
      121: true,
      122: true,
      120: false,
    })
  })

  it('§2 onboarding: back on step 2 after Continue shows the answers just saved', async () => {
    let stored: OnboardingAnswer[] = []
    server.use(
      http.get(apiUrl('/api/v1/users/onboarding'), () => HttpResponse.json({ answers: stored })),
      http.post(apiUrl('/api/v1/users/onboarding'), async ({ request }) => {
        stored = ((await request.json()) as { answers: OnboardingAnswer[] }).answers
        return HttpResponse.json({ success: true })
      }),
    )
    const first = renderWithProviders(<AboutYou />, {
      route: '/welcome/about-you',
      user: makeUser(),
    })
    await first.user.click(await screen.findByRole('checkbox', { name: 'I own a home' }))
    await first.user.click(screen.getByRole('button', { name: 'Continue' }))
    await waitFor(() => expect(first.router.state.location.pathname).toBe('/welcome/contact-info'))
    first.unmount()

    renderWithProviders(<AboutYou />, {
      route: '/welcome/about-you',
      user: makeUser(),
      queryClient: first.queryClient,
    })
    expect(await screen.findByRole('checkbox', { name: 'I own a home' })).toBeChecked()
  })

  it('§2 onboarding: step 2 has a Back link to step 1', async () => {
    server.use(answersOk())
    renderWithProviders(<AboutYou />, { route: '/welcome/about-you', user: makeUser() })
    expect(await screen.findByRole('link', { name: 'Back' })).toHaveAttribute(
      'href',
      '/welcome/about-us',
    )
  })

  it('§8 failed load: answers that could not be read say so with Retry, never an empty form to save over them', async () => {
    let fail = true
    const saved: OnboardingAnswer[][] = []
    server.use(
      http.get(apiUrl('/api/v1/users/onboarding'), () =>
        fail
          ? errorResponse(500, 'Internal')
          : HttpResponse.json({ answers: [{ answer_id: 122, value: true }] }),
      ),
      saveOk(saved),
    )
    const { user } = renderWithProviders(<AboutYou />, {
      route: '/welcome/about-you',
      user: makeUser(),
    })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load your answers.')
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('checkbox', { name: /pet/i })).toBeChecked()
    expect(saved).toEqual([])
  })
})

describe('Onboarding: ContactInfo', () => {
  function renderContact(answers: OnboardingAnswer[] = []) {
    server.use(answersOk(answers))
    return renderWithProviders(<ContactInfo />, {
      route: '/welcome/contact-info',
      user: makeUser({ email: 'jane@example.com' }),
    })
  }

  it('§5 onboarding contact info: everything is optional; the preferred email is prefilled', async () => {
    renderContact()
    const email = await screen.findByLabelText(/Preferred email/)
    expect(email).toHaveValue('jane@example.com')
    expect(screen.getByText('Step 3 of 3')).toBeInTheDocument()
    for (const label of ['Phone number', 'Address line 1', 'Address line 2', 'City', 'Country']) {
      expect(screen.getByText(label).closest('label')).toHaveTextContent('(optional)')
    }
  })

  it('§5 onboarding contact info: once any address field is filled, line 1, city, state, postal code and country are required', async () => {
    const { user } = renderContact()
    await user.type(await screen.findByLabelText(/City/), 'Springfield')
    expect(screen.getByText('Address line 1').closest('label')).not.toHaveTextContent('(optional)')
    expect(screen.getByText('Address line 2').closest('label')).toHaveTextContent('(optional)')
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    expect(await screen.findByText('Please enter your address')).toBeInTheDocument()
    expect(screen.getByText('Please enter your state')).toBeInTheDocument()
    expect(screen.getByText('Please enter your postal code')).toBeInTheDocument()
    expect(screen.getByText('Please enter your country')).toBeInTheDocument()
    expect(screen.queryByText('Please enter your city')).not.toBeInTheDocument()
  })

  it('§5 onboarding contact info: a partial phone number is not valid', async () => {
    const { user } = renderContact()
    await user.type(await screen.findByLabelText(/Phone number/), '555')
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument()
  })

  it('§5 onboarding contact info: a partial phone number takes the focus as the first invalid field', async () => {
    const { user } = renderContact()
    const phone = await screen.findByLabelText(/Phone number/)
    await user.type(phone, '555')
    await user.type(screen.getByLabelText(/City/), 'Springfield')
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    expect(await screen.findByText('Please enter a valid phone number')).toBeInTheDocument()
    expect(phone).toHaveFocus()
    expect(phone).toHaveAccessibleDescription('Please enter a valid phone number')
    await user.type(phone, '1234567')
    await waitFor(() =>
      expect(screen.queryByText('Please enter a valid phone number')).not.toBeInTheDocument(),
    )
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    expect(await screen.findByText('Please enter your address')).toBeInTheDocument()
    expect(screen.getByLabelText(/Address line 1/)).toHaveFocus()
  })

  it('§5 onboarding contact info: emptying the address makes its fields optional again', async () => {
    const { user } = renderContact([{ answer_id: 150, value: 'Springfield' }])
    const city = await screen.findByLabelText(/City/)
    expect(screen.getByText('Address line 1').closest('label')).not.toHaveTextContent('(optional)')
    await user.clear(city)
    expect(screen.getByText('Address line 1').closest('label')).toHaveTextContent('(optional)')
    await user.type(screen.getByLabelText(/Country/), 'United States')
    expect(screen.getByText('Address line 1').closest('label')).not.toHaveTextContent('(optional)')
  })

  it('§3 onboarding answers: Finish saves phone digits, email and address by id, then goes to the Dashboard', async () => {
    const saved: OnboardingAnswer[][] = []
    server.use(saveOk(saved))
    const { user, router } = renderContact([{ answer_id: 150, value: 'Springfield' }])
    await user.type(await screen.findByLabelText(/Phone number/), '5551234567')
    expect(screen.getByLabelText(/Phone number/)).toHaveValue('(555) 123-4567')
    expect(screen.getByLabelText(/City/)).toHaveValue('Springfield')
    await user.type(screen.getByLabelText(/Address line 1/), '742 Evergreen Terrace')
    await user.type(screen.getByLabelText(/State/), 'OR')
    await user.type(screen.getByLabelText(/Postal code/), '97403')
    await user.type(screen.getByLabelText(/Country/), 'United States')
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    const answers = saved[0]
    expect(answerIn(answers, 104)).toBe('5551234567')
    expect(answerIn(answers, 165)).toBe('jane@example.com')
    expect(answerIn(answers, 148)).toBe('742 Evergreen Terrace')
    expect(answerIn(answers, 149)).toBeNull()
    expect(answerIn(answers, 150)).toBe('Springfield')
    expect(answerIn(answers, 151)).toBe('OR')
    expect(answerIn(answers, 311)).toBe('97403')
    expect(answerIn(answers, 313)).toBe('United States')
  })

  it('§3 onboarding answers: the 611 address group is sent with its parts, as the address on one line', async () => {
    const saved: OnboardingAnswer[][] = []
    server.use(saveOk(saved))
    const { user, router } = renderContact()
    await user.type(await screen.findByLabelText(/Address line 1/), '742 Evergreen Terrace')
    await user.type(screen.getByLabelText(/City/), 'Springfield')
    await user.type(screen.getByLabelText(/State/), 'OR')
    await user.type(screen.getByLabelText(/Postal code/), '97403')
    await user.type(screen.getByLabelText(/Country/), 'United States')
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(saved[0].map((answer) => answer.answer_id)).toEqual(
      expect.arrayContaining([611, 148, 149, 150, 151, 311, 313]),
    )
    expect(answerIn(saved[0], 611)).toBe(
      '742 Evergreen Terrace, Springfield, OR, 97403, United States',
    )
  })

  it('§3 onboarding answers: with no address the 611 group is sent empty (null)', async () => {
    const saved: OnboardingAnswer[][] = []
    server.use(saveOk(saved))
    const { user, router } = renderContact()
    await screen.findByLabelText(/Address line 1/)
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard'))
    expect(saved[0]).toContainEqual({ answer_id: 611, value: null })
  })

  it('§8 form errors: server errors keyed by answer id show under their fields', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/onboarding'), () =>
        errorResponse(422, 'Please enter a valid email address', {
          165: ['Please enter a valid email address'],
        }),
      ),
    )
    const { user } = renderContact()
    await screen.findByLabelText(/Preferred email/)
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    const email = screen.getByLabelText(/Preferred email/)
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'))
    expect(
      within(email.closest('div')?.parentElement as HTMLElement).getByText(
        'Please enter a valid email address',
      ),
    ).toBeInTheDocument()
  })

  it('§8 form errors: the first field the server refused takes the focus, in form order', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/onboarding'), () =>
        errorResponse(422, 'Please use at most 200 characters.', {
          150: ['Please use at most 200 characters.'],
          165: ['Please enter a valid email address'],
        }),
      ),
    )
    const { user } = renderContact()
    await screen.findByLabelText(/Preferred email/)
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    const email = screen.getByLabelText(/Preferred email/)
    await waitFor(() => expect(email).toHaveFocus())
    expect(email).toHaveAccessibleDescription('Please enter a valid email address')
    expect(screen.getByLabelText(/City/)).toHaveAccessibleDescription(
      'Please use at most 200 characters.',
    )
  })

  it('§8 form errors: a server error on a field clears once that field changes', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/onboarding'), () =>
        errorResponse(422, 'Please enter a valid email address', {
          165: ['Please enter a valid email address'],
        }),
      ),
    )
    const { user } = renderContact()
    const email = await screen.findByLabelText(/Preferred email/)
    await user.click(screen.getByRole('button', { name: 'Finish' }))
    await waitFor(() => expect(email).toHaveAttribute('aria-invalid', 'true'))
    await user.type(email, 'm')
    await waitFor(() => expect(email).not.toHaveAttribute('aria-invalid'))
    expect(screen.queryByText('Please enter a valid email address')).not.toBeInTheDocument()
  })
})
