import { act, screen, waitFor, within } from '@testing-library/react'
import confetti from 'canvas-confetti'
import { delay, HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { CurrentUser } from '@/api/client'
import { fakeSurveyServer, QUESTIONS, STORAGE_URL } from '@/test/fakeSurveyServer'
import { createGate } from '@/test/gate'
import { createTestQueryClient, makeUser, renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { FLOW_MESSAGES } from '../useSurveyFlow'
import { DISCARD_EDIT_MESSAGE } from './AnsweredQuestion'
import RequestDrawer, { CLOSE_CONFIRM_MESSAGE } from './RequestDrawer'

// celebrate() fires through confetti.create(...): the mock hands back the default mock.
vi.mock('canvas-confetti', () => {
  const fire = vi.fn()
  return { default: Object.assign(fire, { create: vi.fn(() => fire) }) }
})

const TEXT_Q = QUESTIONS[0]
const ALL_ANSWERED: Record<number, string | null> = {
  11: 'Find a plumber',
  12: null,
  13: '5559876543',
  14: 'jane@work.example',
  15: 'this_week',
  16: null,
}

function renderDrawer(
  options: {
    user?: CurrentUser
    onClose?: () => void
    withCachedUser?: boolean
    offeringId?: number
    onOfferingGone?: () => void
    answer?: { questionId: number; value: string }
  } = {},
) {
  const onClose = options.onClose ?? vi.fn()
  const user = options.user ?? makeUser()
  const queryClient = createTestQueryClient()
  if (options.withCachedUser) queryClient.setQueryData(['currentUser'], user)
  const result = renderWithProviders(
    <RequestDrawer
      target={{
        surveyId: 603,
        surveyName: 'Tell us what you need',
        ...(options.offeringId === undefined ? {} : { offeringId: options.offeringId }),
        ...(options.onOfferingGone === undefined ? {} : { onOfferingGone: options.onOfferingGone }),
        ...(options.answer === undefined ? {} : { answer: options.answer }),
      }}
      onClose={onClose}
    />,
    { route: '/dashboard', user, queryClient },
  )
  return { ...result, onClose }
}

function useFake(options: Parameters<typeof fakeSurveyServer>[0] = {}) {
  const fake = fakeSurveyServer(options)
  server.use(...fake.list)
  return fake
}

const continueButton = () => screen.getByRole('button', { name: 'Continue' })

beforeEach(() => {
  vi.mocked(confetti).mockClear()
})

/** At the email question (after useFake's answers up to it), Continue is refused by the
 * server (422) with `error`. */
async function refuseTheEmailAnswer(error: string) {
  vi.spyOn(console, 'error').mockImplementation(() => {})
  server.use(
    http.post(apiUrl('/api/v1/user_request_surveys/77/user_request_answers'), () =>
      HttpResponse.json(
        { success: false, error, errors: { value: ['Please enter a valid email address'] } },
        { status: 422 },
      ),
    ),
  )
  const { user } = renderDrawer()
  await screen.findByRole('textbox', { name: /Which email/ })
  await user.click(continueButton())
}

describe('the guided survey: starting fresh or continuing', () => {
  it("a run with answers asks 'Continue where you left off?'; Continue shows the answers", async () => {
    useFake({ answered: { 11: 'Find a plumber' }, reportResumed: true })
    const { user } = renderDrawer()
    expect(await screen.findByText('Continue where you left off?')).toBeInTheDocument()
    expect(screen.queryByText('Find a plumber')).not.toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Continue' }))
    expect(await screen.findByText('Find a plumber')).toBeInTheDocument()
    expect(screen.queryByText('Continue where you left off?')).not.toBeInTheDocument()
  })

  it("§4 request drawer: 'Continue where you left off?' takes the focus to its Continue button", async () => {
    useFake({ answered: { 11: 'Find a plumber' }, reportResumed: true })
    renderDrawer()
    await screen.findByText('Continue where you left off?')
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue' })).toHaveFocus())
  })

  it("'Start over' begins afresh (start_over) and asks the first question again", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' }, reportResumed: true })
    const { user } = renderDrawer()
    await user.click(await screen.findByRole('button', { name: 'Start over' }))
    await waitFor(() => expect(fake.state.begins).toHaveLength(2))
    expect(fake.state.begins[1]?.body).toEqual({ for_alpha: true, start_over: true })
    expect(await screen.findByRole('form', { name: QUESTIONS[0]?.label })).toBeInTheDocument()
    expect(screen.queryByText('Find a plumber')).not.toBeInTheDocument()
  })

  it("'Get help' from an offering begins the run for that offering (offering_id), and Start over keeps it", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' }, reportResumed: true })
    const { user } = renderDrawer({ offeringId: 42 })
    await user.click(await screen.findByRole('button', { name: 'Start over' }))
    await waitFor(() => expect(fake.state.begins).toHaveLength(2))
    expect(fake.state.begins.map((b) => b.body)).toEqual([
      { for_alpha: true, start_over: false, offering_id: 42 },
      { for_alpha: true, start_over: true, offering_id: 42 },
    ])
  })

  it("'Get help' for an offering without a run of its own asks the first question, no 'Continue where you left off?'", async () => {
    // The server keeps another offering's answers to that offering: this begin is a new run.
    const fake = useFake({ reportResumed: true })
    renderDrawer({ offeringId: 43 })
    expect(await screen.findByRole('form', { name: QUESTIONS[0]?.label })).toBeInTheDocument()
    expect(screen.queryByText('Continue where you left off?')).not.toBeInTheDocument()
    expect(fake.state.begins[0]?.body).toEqual({
      for_alpha: true,
      start_over: false,
      offering_id: 43,
    })
  })

  it("a request started again right after 'Yes, cancel' begins once the discard is done (fresh)", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' }, reportResumed: true })
    const order: string[] = []
    server.use(
      http.delete(apiUrl('/api/v1/user_request_surveys/77'), async () => {
        await delay(150)
        fake.answers.clear()
        order.push('discarded')
        return HttpResponse.json({ success: true })
      }),
    )
    const first = renderDrawer()
    await first.user.click(await screen.findByRole('button', { name: 'Continue' }))
    expect(await screen.findByText('Find a plumber')).toBeInTheDocument()
    await first.user.keyboard('{Escape}')
    await first.user.click(await screen.findByRole('button', { name: 'Yes, cancel' }))
    first.unmount()
    renderDrawer()
    await waitFor(() => expect(fake.state.begins).toHaveLength(2))
    expect(order).toEqual(['discarded'])
    expect(await screen.findByRole('form', { name: QUESTIONS[0]?.label })).toBeInTheDocument()
    expect(screen.queryByText('Continue where you left off?')).not.toBeInTheDocument()
  })

  it("'Yes, cancel' discards the run, so the next request starts fresh", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' } })
    const { user, onClose } = renderDrawer()
    expect(await screen.findByText('Find a plumber')).toBeInTheDocument()
    await user.keyboard('{Escape}')
    await user.click(await screen.findByRole('button', { name: 'Yes, cancel' }))
    expect(onClose).toHaveBeenCalled()
    await waitFor(() => expect(fake.state.discards).toBe(1))
    expect(fake.answers.size).toBe(0)
  })
})

describe('the guided survey: progress and pre-filled text', () => {
  it("shows 'Question n of m' while asking", async () => {
    useFake({ answered: { 11: 'Find a plumber', 12: null } })
    renderDrawer()
    expect(
      await screen.findByRole('progressbar', { name: `Question 3 of ${QUESTIONS.length}` }),
    ).toBeInTheDocument()
  })

  it('a text question with a universal answer (the address) starts from it', async () => {
    const address = '1 Main St, Springfield, IL 62701, United States'
    useFake({
      questions: [
        { id: 31, label: 'Where should we go?', type: 'TextInput', universal_answer: address },
      ],
    })
    renderDrawer()
    expect(await screen.findByRole('textbox', { name: 'Where should we go?' })).toHaveValue(address)
  })
})

describe('§4 request drawer flow', () => {
  it('§4 request drawer: begins the survey (for_alpha true) and Penny asks the first question, focused', async () => {
    const fake = useFake()
    renderDrawer()
    expect(screen.getByRole('dialog', { name: 'Tell us what you need' })).toBeInTheDocument()
    const input = await screen.findByRole('textbox', { name: TEXT_Q.label })
    await waitFor(() => expect(input).toHaveFocus())
    expect(fake.state.begins).toEqual([
      { surveyId: 603, body: { for_alpha: true, start_over: false } },
    ])
    const log = screen.getByRole('log', { name: 'Conversation with Penny' })
    expect(log).toHaveTextContent("Hi Jane! I'm Penny")
    expect(log).toHaveTextContent(TEXT_Q.label)
  })

  it('§5 survey answers: Continue is disabled until there is an answer; the answer is sent as a Datum', async () => {
    const fake = useFake()
    const { user } = renderDrawer()
    const input = await screen.findByRole('textbox', { name: TEXT_Q.label })
    expect(continueButton()).toBeDisabled()
    await user.type(input, '   ')
    expect(continueButton()).toBeDisabled()
    await user.clear(input)
    await user.type(input, ' Find a plumber ')
    expect(continueButton()).toBeEnabled()
    await user.click(continueButton())
    await screen.findByRole('textbox', { name: /Anything else we should know/ })
    expect(fake.state.answerCalls[0].body).toEqual({
      user_request_answer: {
        object_satisfied_id: 11,
        object_satisfied_type: 'Datum',
        value: 'Find a plumber',
      },
    })
    const log = screen.getByRole('log')
    expect(within(log).getByText('Find a plumber')).toBeInTheDocument()
  })

  it('a survey sent meanwhile from another tab: the next answer shows the request that was sent, not an error', async () => {
    const fake = useFake()
    server.use(
      http.post(apiUrl('/api/v1/user_request_surveys/:runId/user_request_answers'), () =>
        HttpResponse.json(
          { success: false, error: 'This request has already been submitted.' },
          { status: 409 },
        ),
      ),
    )
    const { user } = renderDrawer()
    await user.type(await screen.findByRole('textbox', { name: TEXT_Q.label }), 'Find a plumber')
    await user.click(continueButton())
    expect(
      await screen.findByRole('heading', { name: "We've received your request" }),
    ).toBeInTheDocument()
    expect(screen.queryByText('This request has already been submitted.')).toBeNull()
    expect(fake.state.submits).toBe(1) // answered with the request the other tab made
  })

  it("§4 request drawer: an optional question has 'Skip'; skipping sends null and shows 'Question Skipped'", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else we should know/ })
    await user.click(screen.getByRole('button', { name: 'Skip' }))
    await screen.findByRole('textbox', { name: /best phone number/ })
    expect(fake.state.answerCalls.at(-1)?.body.user_request_answer).toMatchObject({
      object_satisfied_id: 12,
      value: null,
    })
    expect(within(screen.getByRole('log')).getByText('Question Skipped')).toBeInTheDocument()
  })

  it('§4 request drawer: a required question offers no Skip', async () => {
    useFake()
    renderDrawer()
    await screen.findByRole('textbox', { name: TEXT_Q.label })
    expect(screen.queryByRole('button', { name: 'Skip' })).not.toBeInTheDocument()
  })

  it('§4 request drawer: a resumed run shows the questions already answered as a conversation', async () => {
    useFake({ answered: { 11: 'Find a plumber', 12: null } })
    renderDrawer()
    await screen.findByRole('textbox', { name: /best phone number/ })
    const log = screen.getByRole('log')
    expect(log).toHaveTextContent('What do you need help with?')
    expect(log).toHaveTextContent('Find a plumber')
    expect(log).toHaveTextContent('Question Skipped')
    expect(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    ).toBeInTheDocument()
  })

  it('§5 phone mask: the phone question is masked (999) 999-9999 and prefilled; sent as digits', async () => {
    const fake = useFake({ answered: { 11: 'x', 12: null } })
    const { user } = renderDrawer()
    const phone = await screen.findByRole('textbox', { name: /best phone number/ })
    expect(phone).toHaveValue('(555) 123-4567')
    expect(continueButton()).toBeEnabled()
    await user.clear(phone)
    expect(continueButton()).toBeDisabled()
    await user.type(phone, '55598')
    expect(phone).toHaveValue('(555) 98_-____')
    expect(continueButton()).toBeDisabled()
    await user.type(phone, '76543')
    expect(phone).toHaveValue('(555) 987-6543')
    await user.click(continueButton())
    await screen.findByRole('textbox', { name: /Which email/ })
    expect(fake.state.answerCalls.at(-1)?.body.user_request_answer.value).toBe('5559876543')
    expect(within(screen.getByRole('log')).getByText('(555) 987-6543')).toBeInTheDocument()
  })

  it('§3 ManagedEmailInput: prefilled from the universal answer; an invalid address is not sent', async () => {
    const fake = useFake({ answered: { 11: 'x', 12: null, 13: '5551234567' } })
    const { user } = renderDrawer()
    const email = await screen.findByRole('textbox', { name: /Which email/ })
    expect(email).toHaveAttribute('type', 'email')
    expect(email).toHaveValue('jane.doe@example.com')
    await user.clear(email)
    await user.type(email, 'not-an-email')
    await user.click(continueButton())
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
    expect(fake.state.answerCalls).toHaveLength(0)
    await user.clear(email)
    await user.type(email, 'jane@work.example')
    await user.click(continueButton())
    await screen.findByRole('radiogroup', { name: /How soon/ })
    expect(fake.state.answerCalls[0].body.user_request_answer.value).toBe('jane@work.example')
  })

  it('§3 SingleSelectInput: options as radio chips; the option value is sent and its label shown', async () => {
    const fake = useFake({ answered: { 11: 'x', 12: null, 13: '5551234567', 14: 'a@b.co' } })
    const { user } = renderDrawer()
    const group = await screen.findByRole('radiogroup', { name: /How soon/ })
    expect(within(group).getAllByRole('radio')).toHaveLength(2)
    expect(continueButton()).toBeDisabled()
    await user.click(within(group).getByRole('radio', { name: 'This month' }))
    expect(continueButton()).toBeEnabled()
    await user.click(continueButton())
    await screen.findByText('Choose a file')
    expect(fake.state.answerCalls[0].body.user_request_answer.value).toBe('this_month')
    expect(within(screen.getByRole('log')).getByText('This month')).toBeInTheDocument()
  })

  it("§4 file upload: Pending → 'Uploading n%' → 'Uploaded'; Continue waits for the upload; the key is the answer", async () => {
    const fake = useFake({
      answered: { 11: 'x', 12: null, 13: '5551234567', 14: 'a@b.co', 15: 'this_week' },
    })
    const gate = createGate()
    server.use(
      http.put(`${STORAGE_URL}/:name`, async () => {
        await gate.opened
        return new HttpResponse(null, { status: 200 })
      }),
    )
    const { user } = renderDrawer()
    const picker = await screen.findByLabelText('Choose a file')
    expect(continueButton()).toBeDisabled()
    await user.upload(picker, new File(['%PDF'], 'quote.pdf', { type: 'application/pdf' }))
    expect(await screen.findByText(/^Uploading \d+%$/)).toBeInTheDocument()
    expect(continueButton()).toBeDisabled()
    gate.open()
    expect(await screen.findByText('Uploaded')).toBeInTheDocument()
    expect(continueButton()).toBeEnabled()
    await user.click(continueButton())
    // The last answer's form is gone: focus moves to the review (issue 10, keyboard users).
    expect(await screen.findByRole('heading', { name: 'Review your request' })).toHaveFocus()
    expect(fake.state.presigns).toEqual([{ upload: { filename: 'quote.pdf' } }])
    expect(fake.state.answerCalls[0].body.user_request_answer.value).toBe('uploads/quote.pdf')
    expect(screen.getByRole('region', { name: 'Review your request' })).toHaveTextContent(
      'quote.pdf',
    )
  })

  it("§8 file upload: a failed upload clears the file and shows 'Error uploading {file name}'", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useFake({ answered: { 11: 'x', 12: null, 13: '5551234567', 14: 'a@b.co', 15: 'this_week' } })
    server.use(http.put(`${STORAGE_URL}/:name`, () => new HttpResponse('no', { status: 500 })))
    const { user } = renderDrawer()
    const picker = await screen.findByLabelText('Choose a file')
    await user.upload(picker, new File(['x'], 'photo.png', { type: 'image/png' }))
    expect(await screen.findByText('Error uploading photo.png')).toBeInTheDocument()
    await waitFor(() =>
      expect(screen.queryByRole('list', { name: 'Selected file' })).not.toBeInTheDocument(),
    )
    expect(continueButton()).toBeDisabled()
  })
})

describe('§4 request drawer: editing answers', () => {
  it('§4 request drawer: Edit opens an inline editor; Save sends the new value and shows it', async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else/ })
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    const editor = screen.getByRole('textbox', { name: 'What do you need help with?' })
    expect(editor).toHaveValue('Find a plumber')
    await waitFor(() => expect(editor).toHaveFocus())
    await user.clear(editor)
    await user.type(editor, 'Find an electrician')
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument(),
    )
    expect(fake.state.answerCalls.at(-1)?.body.user_request_answer).toMatchObject({
      object_satisfied_id: 11,
      value: 'Find an electrician',
    })
    expect(within(screen.getByRole('log')).getByText('Find an electrician')).toBeInTheDocument()
    await waitFor(() =>
      expect(
        screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
      ).toHaveFocus(),
    )
  })

  it("§4 request drawer: Cancel with changes asks 'Are you sure you want to cancel your edit…'; discard restores", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber' } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else/ })
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    const editor = screen.getByRole('textbox', { name: 'What do you need help with?' })
    await user.type(editor, ' today')
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    const confirm = await screen.findByRole('alertdialog', { name: DISCARD_EDIT_MESSAGE })
    expect(confirm).toHaveTextContent(
      "Are you sure you want to cancel your edit and discard any changes you've made?",
    )
    await user.click(within(confirm).getByRole('button', { name: 'No, keep editing' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(screen.getByRole('textbox', { name: 'What do you need help with?' })).toHaveValue(
      'Find a plumber today',
    )
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Yes, discard' }),
    )
    await waitFor(() =>
      expect(
        screen.queryByRole('textbox', { name: 'What do you need help with?' }),
      ).not.toBeInTheDocument(),
    )
    expect(within(screen.getByRole('log')).getByText('Find a plumber')).toBeInTheDocument()
    expect(fake.state.answerCalls).toHaveLength(0)
  })

  it("§4 request drawer: an answered optional question can be skipped from its editor ('Question Skipped')", async () => {
    const fake = useFake({ answered: { 11: 'Find a plumber', 12: 'Ring twice' } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /best phone number/ })
    await user.click(screen.getByRole('button', { name: /^Edit answer: Anything else/ }))
    const editor = screen.getByRole('form', { name: /Anything else/ })
    await user.click(within(editor).getByRole('button', { name: 'Skip' }))

    await waitFor(() => expect(screen.queryByRole('form', { name: /Anything else/ })).toBeNull())
    expect(fake.state.answerCalls.at(-1)?.body.user_request_answer).toMatchObject({
      object_satisfied_id: 12,
      value: null,
    })
    expect(within(screen.getByRole('log')).getByText('Question Skipped')).toBeInTheDocument()
  })

  it('§4 request drawer: a skipped or required question being edited offers no Skip', async () => {
    useFake({ answered: { 11: 'Find a plumber', 12: null } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /best phone number/ })
    await user.click(screen.getByRole('button', { name: /^Edit answer: Anything else/ }))
    expect(
      within(screen.getByRole('form', { name: /Anything else/ })).queryByRole('button', {
        name: 'Skip',
      }),
    ).toBeNull()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    expect(
      within(screen.getByRole('form', { name: 'What do you need help with?' })).queryByRole(
        'button',
        { name: 'Skip' },
      ),
    ).toBeNull()
  })

  it('§4 request drawer: Cancel without changes closes the editor without asking', async () => {
    useFake({ answered: { 11: 'Find a plumber' } })
    const { user } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else/ })
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Save' })).not.toBeInTheDocument()
  })

  it('§4 request drawer: editing a select answer offers its options again', async () => {
    const fake = useFake({ answered: { 11: 'x', 12: null, 13: '5551234567', 14: 'a@b.co' } })
    const { user } = renderDrawer()
    const group = await screen.findByRole('radiogroup', { name: /How soon/ })
    await user.click(within(group).getByRole('radio', { name: 'This week' }))
    await user.click(continueButton())
    await screen.findByText('Choose a file')
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: How soon do you need this?' }),
    )
    const editGroup = screen.getByRole('radiogroup', { name: /How soon/ })
    expect(within(editGroup).getByRole('radio', { name: 'This week' })).toBeChecked()
    await user.click(within(editGroup).getByRole('radio', { name: 'This month' }))
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(within(screen.getByRole('log')).getByText('This month')).toBeInTheDocument(),
    )
    expect(fake.state.answerCalls.at(-1)?.body.user_request_answer.value).toBe('this_month')
  })
})

describe('§4 request drawer: summary, submit and confirmation', () => {
  it("§4 request drawer: Submit disabled and labelled 'Finish editing above' while editing", async () => {
    useFake({ answered: ALL_ANSWERED })
    const { user } = renderDrawer()
    await screen.findByRole('heading', { name: 'Review your request' })
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled()
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    const submit = screen.getByRole('button', { name: 'Finish editing above' })
    expect(submit).toBeDisabled()
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled()
  })

  it('§4 request drawer: the summary review lists every answer with its display value', async () => {
    useFake({ answered: ALL_ANSWERED })
    renderDrawer()
    await screen.findByRole('heading', { name: 'Review your request' })
    const list = screen
      .getByRole('region', { name: 'Review your request' })
      .querySelector('dl') as HTMLElement
    const texts = within(list)
      .getAllByRole('term')
      .map((term) => term.textContent)
    expect(texts).toEqual(QUESTIONS.map((q) => q.label))
    expect(list).toHaveTextContent('Find a plumber')
    expect(list).toHaveTextContent('(555) 987-6543')
    expect(list).toHaveTextContent('jane@work.example')
    expect(list).toHaveTextContent('This week')
    expect(within(list).getAllByText('Question Skipped')).toHaveLength(2)
  })

  it("§4 request drawer: 'Submitting', then the received confirmation, whose links go on in the drawer's place", async () => {
    const fake = useFake({ answered: ALL_ANSWERED })
    const gate = createGate()
    server.use(
      http.post(apiUrl('/api/v1/user_request_surveys/77/submit'), async () => {
        await gate.opened
        fake.state.submits += 1
        return HttpResponse.json({ success: true, request_id: 501 })
      }),
    )
    const { user, onClose, router } = renderDrawer({ user: makeUser({ request_count: 2 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    // The design-system busy button: a spinner labelled 'Loading', then the text.
    const submitting = await screen.findByRole('button', { name: /Submitting$/ })
    expect(submitting).toBeDisabled()
    expect(submitting).toHaveAttribute('aria-busy', 'true')
    gate.open()
    const heading = await screen.findByRole('heading', { name: "We've received your request" })
    await waitFor(() => expect(heading).toHaveFocus())
    expect(fake.state.submits).toBe(1)
    expect(screen.getByText('What happens next')).toBeInTheDocument()
    const requests = screen.getByRole('link', { name: 'View my requests' })
    expect(requests).toHaveAttribute('href', '/requests')
    // Over the Dashboard, 'Go to Dashboard' only closes the drawer.
    await user.click(screen.getByRole('button', { name: 'Go to Dashboard' }))
    expect(onClose).toHaveBeenCalledTimes(1)
    await user.click(requests)
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests'))
    expect(router.state.historyAction).toBe('REPLACE')
  })

  it('issue 29 request drawer: the confirmation opens the new request first, beside the list and the Dashboard', async () => {
    const fake = useFake({ answered: ALL_ANSWERED })
    server.use(
      http.post(apiUrl('/api/v1/user_request_surveys/77/submit'), () => {
        fake.state.submits += 1
        return HttpResponse.json({ success: true, request_id: 501 })
      }),
    )
    const { user, onClose, router } = renderDrawer({ user: makeUser({ request_count: 2 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await screen.findByRole('heading', { name: "We've received your request" })
    const open = screen.getByRole('link', { name: 'Open this request' })
    expect(open).toHaveAttribute('href', '/requests/501')
    expect(screen.getByRole('link', { name: 'View my requests' })).toHaveAttribute(
      'href',
      '/requests',
    )
    await user.click(open)
    await waitFor(() => expect(router.state.location.pathname).toBe('/requests/501'))
    expect(router.state.historyAction).toBe('REPLACE')
    expect(onClose).not.toHaveBeenCalled()
  })

  it('§4 request drawer: confetti (2000 ms, 150 pieces) on the first-ever request only', async () => {
    useFake({ answered: ALL_ANSWERED })
    const { user, queryClient } = renderDrawer({
      user: makeUser({ request_count: 0 }),
      withCachedUser: true,
    })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await screen.findByRole('heading', { name: "We've received your request" })
    const calls = vi.mocked(confetti).mock.calls.map(([options]) => options)
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.reduce((sum, options) => sum + (options?.particleCount ?? 0), 0)).toBe(150)
    for (const options of calls) expect(options?.ticks).toBe(120)
    // Spec §3: request_count is incremented locally when a request is created.
    expect(queryClient.getQueryData<CurrentUser>(['currentUser'])?.request_count).toBe(1)
  })

  it('§4 request drawer: no confetti when the user already had requests', async () => {
    useFake({ answered: ALL_ANSWERED })
    const { user } = renderDrawer({ user: makeUser({ request_count: 3 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await screen.findByRole('heading', { name: "We've received your request" })
    expect(confetti).not.toHaveBeenCalled()
  })

  it('§4 request drawer: no confetti when the user prefers reduced motion', async () => {
    useFake({ answered: ALL_ANSWERED })
    vi.stubGlobal(
      'matchMedia',
      vi.fn((query: string) => ({ matches: query.includes('reduce'), media: query })),
    )
    try {
      const { user } = renderDrawer({ user: makeUser({ request_count: 0 }) })
      await user.click(await screen.findByRole('button', { name: 'Submit' }))
      await screen.findByRole('heading', { name: "We've received your request" })
      expect(confetti).not.toHaveBeenCalled()
    } finally {
      vi.unstubAllGlobals()
    }
  })
})

describe('§4 request drawer: closing', () => {
  it("§4 request drawer: closing mid-flow asks 'Wait! You're almost there…'; 'No, stay' keeps it open", async () => {
    useFake({ answered: { 11: 'Find a plumber' } })
    const { user, onClose } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else/ })
    await user.click(screen.getByRole('button', { name: 'Close' }))
    const confirm = await screen.findByRole('alertdialog', { name: CLOSE_CONFIRM_MESSAGE })
    expect(confirm).toHaveTextContent(
      "Wait! You're almost there. Are you sure you want to stop now?",
    )
    await user.click(within(confirm).getByRole('button', { name: 'No, stay' }))
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(onClose).not.toHaveBeenCalled()
    expect(screen.getByRole('dialog', { name: 'Tell us what you need' })).toBeInTheDocument()
  })

  it("§4 request drawer: Escape mid-flow asks too, and 'Yes, cancel' closes", async () => {
    useFake({ answered: { 11: 'Find a plumber' } })
    const { user, onClose } = renderDrawer()
    await screen.findByRole('textbox', { name: /Anything else/ })
    await user.keyboard('{Escape}')
    const confirm = await screen.findByRole('alertdialog', { name: CLOSE_CONFIRM_MESSAGE })
    await user.click(within(confirm).getByRole('button', { name: 'Yes, cancel' }))
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('§4 request drawer: closing before anything was answered closes directly', async () => {
    useFake()
    const { user, onClose } = renderDrawer()
    await screen.findByRole('textbox', { name: TEXT_Q.label })
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(onClose).toHaveBeenCalledTimes(1)
  })

  it('§4 request drawer: closing after submission closes directly', async () => {
    useFake({ answered: ALL_ANSWERED })
    const { user, onClose } = renderDrawer({ user: makeUser({ request_count: 1 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    await screen.findByRole('heading', { name: "We've received your request" })
    await user.click(screen.getByRole('button', { name: 'Close' }))
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument()
    expect(onClose).toHaveBeenCalledTimes(1)
  })
})

describe('§4 request drawer: typing indicator', () => {
  it('§4 request drawer: the typing indicator shows only when a fetch takes over 250 ms', async () => {
    useFake()
    const gate = createGate()
    server.use(
      http.get(apiUrl('/api/v1/user_request_surveys/77/next_screen_item'), async () => {
        await gate.opened
        return HttpResponse.json({
          next_item: {
            item: {
              id: 11,
              label: TEXT_Q.label,
              type: 'TextInput',
              select_options: [],
              universal_answer: null,
            },
            optional: false,
            last_question: false,
          },
        })
      }),
    )
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      renderDrawer()
      await act(async () => {
        await vi.advanceTimersByTimeAsync(249)
      })
      expect(screen.queryByText('Penny is typing')).not.toBeInTheDocument()
      await act(async () => {
        await vi.advanceTimersByTimeAsync(2)
      })
      expect(screen.getByText('Penny is typing')).toHaveClass('sr-only')
      expect(
        screen
          .getByTestId('typing-indicator')
          .querySelectorAll('[aria-hidden="true"].rounded-full'),
      ).toHaveLength(3)
      await act(async () => {
        gate.open()
        await vi.advanceTimersByTimeAsync(0)
      })
      await vi.waitFor(() => expect(screen.queryByText('Penny is typing')).not.toBeInTheDocument())
      expect(screen.getByRole('textbox', { name: TEXT_Q.label })).toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })

  it('§4 request drawer: a quick fetch shows no typing indicator', async () => {
    useFake()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    try {
      renderDrawer()
      await act(async () => {
        await vi.advanceTimersByTimeAsync(100)
      })
      await vi.waitFor(() =>
        expect(screen.getByRole('textbox', { name: TEXT_Q.label })).toBeInTheDocument(),
      )
      await act(async () => {
        await vi.advanceTimersByTimeAsync(1000)
      })
      expect(screen.queryByText('Penny is typing')).not.toBeInTheDocument()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('§8 request drawer: failures', () => {
  it('§8 request drawer: a failed begin is logged and offers Retry', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const fake = useFake()
    let fail = true
    server.use(
      http.post(apiUrl('/api/v1/request_surveys/603/user_request_surveys'), () => {
        if (fail) return HttpResponse.json({ success: false, error: 'Boom' }, { status: 500 })
        fake.state.begins.push({ surveyId: 603, body: null })
        return HttpResponse.json({ success: true, user_request_survey: { id: 77 } })
      }),
    )
    const { user } = renderDrawer()
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(FLOW_MESSAGES.begin)
    expect(errors).toHaveBeenCalledWith('Failed to begin survey', expect.anything(), 'Boom')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('textbox', { name: TEXT_Q.label })).toBeInTheDocument()
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it("'Get help' refused because the offer is gone (404): the server's message shows, without Retry, and the offer's screen is told", async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const gone = "We couldn't find that benefit or offer."
    server.use(
      http.post(apiUrl('/api/v1/request_surveys/603/user_request_surveys'), () =>
        HttpResponse.json({ success: false, error: gone }, { status: 404 }),
      ),
    )
    const onOfferingGone = vi.fn()
    renderDrawer({ offeringId: 42, onOfferingGone })
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(gone)
    expect(alert).not.toHaveTextContent(FLOW_MESSAGES.begin)
    expect(within(alert).queryByRole('button', { name: 'Retry' })).toBeNull()
    expect(onOfferingGone).toHaveBeenCalledTimes(1)
  })

  it('§8 request drawer: a failed answer keeps the input, is logged and can be retried', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const fake = useFake()
    let fail = true
    server.use(
      // Once `fail` is off, the resolver returns nothing and the fake server's handler answers.
      http.post(apiUrl('/api/v1/user_request_surveys/77/user_request_answers'), () => {
        if (fail) return HttpResponse.json({ success: false, error: 'Down' }, { status: 503 })
      }),
    )
    const { user } = renderDrawer()
    await user.type(await screen.findByRole('textbox', { name: TEXT_Q.label }), 'Find a plumber')
    await user.click(continueButton())
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(FLOW_MESSAGES.save)
    expect(errors).toHaveBeenCalledWith('Failed to save answer', expect.anything(), 'Down')
    expect(screen.getByRole('textbox', { name: TEXT_Q.label })).toHaveValue('Find a plumber')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    await screen.findByRole('textbox', { name: /Anything else/ })
    expect(fake.answers.get(11)).toBe('Find a plumber')
  })

  it("§8 request drawer: a rejected answer (422) shows the server's text", async () => {
    useFake({ answered: { 11: 'x', 12: null, 13: '5551234567' } })
    await refuseTheEmailAnswer('Validation failed')
    expect(await screen.findByText('Please enter a valid email address')).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: /Which email/ })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
  })

  it('§5 survey answers: a refused answer (422) brings the focus back to its field, described by the error', async () => {
    useFake({ answered: { 11: 'x', 12: null, 13: '5551234567' } })
    await refuseTheEmailAnswer('Please enter a valid email address')
    await screen.findByText('Please enter a valid email address')
    const email = screen.getByRole('textbox', { name: /Which email/ })
    await waitFor(() => expect(email).toHaveFocus())
    expect(email).toHaveAccessibleDescription('Please enter a valid email address')
  })

  it('§5 survey answers: an address refused before sending moves the focus from Continue to the field', async () => {
    useFake({ answered: { 11: 'x', 12: null, 13: '5551234567' } })
    const { user } = renderDrawer()
    const email = await screen.findByRole('textbox', { name: /Which email/ })
    await user.clear(email)
    await user.type(email, 'not-an-email')
    await user.click(continueButton())
    await screen.findByText('Please enter a valid email address')
    expect(email).toHaveFocus()
  })

  it('§8 request drawer: a failed answer (offline) brings the focus back to the field, not lost with the disabled Continue', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useFake()
    server.use(
      http.post(apiUrl('/api/v1/user_request_surveys/77/user_request_answers'), () =>
        HttpResponse.error(),
      ),
    )
    const { user } = renderDrawer()
    const input = await screen.findByRole('textbox', { name: TEXT_Q.label })
    await user.type(input, 'Find a plumber')
    await user.click(continueButton())
    expect(await screen.findByRole('alert')).toHaveTextContent(FLOW_MESSAGES.save)
    await waitFor(() => expect(input).toHaveFocus())
  })

  it('§4 request drawer: a question an earlier answer changed elsewhere has dropped (422 on the question) gives way to the next one', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    const gone = "That question doesn't apply to your earlier answers."
    const fake = useFake({ answered: { 11: 'x' } })
    server.use(
      http.post(
        apiUrl('/api/v1/user_request_surveys/77/user_request_answers'),
        () => {
          fake.answers.set(12, null) // another tab moved the run past this question
          return HttpResponse.json(
            { success: false, error: gone, errors: { object_satisfied_id: [gone] } },
            { status: 422 },
          )
        },
        { once: true },
      ),
    )
    const { user } = renderDrawer()
    await user.type(await screen.findByRole('textbox', { name: /Anything else/ }), 'Thanks')
    await user.click(continueButton())
    expect(await screen.findByRole('textbox', { name: /best phone number/ })).toBeInTheDocument()
    expect(screen.queryByText(gone)).not.toBeInTheDocument()
  })

  it('§8 request drawer: a failed submit is logged and offers Retry', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const fake = useFake({ answered: ALL_ANSWERED })
    let fail = true
    server.use(
      // Once `fail` is off, the resolver returns nothing and the fake server's handler answers.
      http.post(apiUrl('/api/v1/user_request_surveys/77/submit'), () => {
        if (fail) return HttpResponse.json({ success: false, error: 'Oops' }, { status: 500 })
      }),
    )
    const { user } = renderDrawer({ user: makeUser({ request_count: 1 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(FLOW_MESSAGES.submit)
    expect(errors).toHaveBeenCalledWith('Failed to submit survey', expect.anything(), 'Oops')
    expect(screen.getByRole('button', { name: 'Submit' })).toBeEnabled()
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(
      await screen.findByRole('heading', { name: "We've received your request" }),
    ).toBeInTheDocument()
    expect(fake.state.submits).toBe(1)
  })

  it('§8 request drawer: a failed submit takes the focus to Retry (Submit was disabled while sending)', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useFake({ answered: ALL_ANSWERED })
    server.use(
      http.post(apiUrl('/api/v1/user_request_surveys/77/submit'), () =>
        HttpResponse.json({ success: false, error: 'Oops' }, { status: 500 }),
      ),
    )
    const { user } = renderDrawer({ user: makeUser({ request_count: 1 }) })
    await user.click(await screen.findByRole('button', { name: 'Submit' }))
    const alert = await screen.findByRole('alert')
    await waitFor(() => expect(within(alert).getByRole('button', { name: 'Retry' })).toHaveFocus())
  })

  it('§8 request drawer: a next question that fails to load takes the focus to Retry, not lost with the answered form', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {})
    useFake()
    const { user } = renderDrawer()
    await user.type(await screen.findByRole('textbox', { name: TEXT_Q.label }), 'Find a plumber')
    server.use(
      http.get(apiUrl('/api/v1/user_request_surveys/77/next_screen_item'), () =>
        HttpResponse.error(),
      ),
    )
    await user.click(continueButton())
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent(FLOW_MESSAGES.load)
    await waitFor(() => expect(within(alert).getByRole('button', { name: 'Retry' })).toHaveFocus())
  })

  it('§4 request drawer: a slow next question still arrives after the answer (delayed server)', async () => {
    useFake({ answered: { 11: 'x' } })
    server.use(
      http.get(apiUrl('/api/v1/user_request_surveys/77/next_screen_item'), async () => {
        await delay(300)
      }),
    )
    renderDrawer()
    expect(await screen.findByText('Penny is typing')).toBeInTheDocument()
    expect(await screen.findByRole('textbox', { name: /Anything else/ })).toBeInTheDocument()
    expect(screen.queryByText('Penny is typing')).not.toBeInTheDocument()
  })
})

describe("issue 29 'The intake': choosing an option", () => {
  const UP_TO_CHOICE = { 11: 'x', 12: null, 13: '5551234567', 14: 'a@b.co' }

  it('issue 29 intake: number keys 1–9 choose the matching option, shown as key hints the name leaves out', async () => {
    const fake = useFake({ answered: UP_TO_CHOICE })
    const { user } = renderDrawer()
    const group = await screen.findByRole('radiogroup', { name: /How soon/ })
    const week = within(group).getByRole('radio', { name: 'This week' })
    const month = within(group).getByRole('radio', { name: 'This month' })
    // Each option shows its key, hidden from screen readers and outside its name.
    const hints = group.querySelectorAll('[data-key-hint]')
    expect([...hints].map((hint) => hint.textContent)).toEqual(['1', '2'])
    for (const hint of hints) expect(hint).toHaveAttribute('aria-hidden', 'true')
    expect(month).not.toHaveAccessibleDescription()

    await user.keyboard('2')
    expect(month).toBeChecked()
    expect(month).toHaveFocus()
    await user.keyboard('1')
    expect(week).toBeChecked()
    await user.keyboard('3') // no third option: nothing changes
    expect(week).toBeChecked()
    await user.click(continueButton())
    await screen.findByText('Choose a file')
    expect(fake.state.answerCalls[0].body.user_request_answer.value).toBe('this_week')
  })

  it('issue 29 intake: number keys typed in a text field stay text', async () => {
    useFake({ answered: UP_TO_CHOICE })
    const { user } = renderDrawer()
    const group = await screen.findByRole('radiogroup', { name: /How soon/ })
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: What do you need help with?' }),
    )
    const field = await screen.findByRole('textbox', { name: 'What do you need help with?' })
    await user.clear(field)
    await user.type(field, 'Flat 2')
    expect(field).toHaveValue('Flat 2')
    for (const radio of within(group).getAllByRole('radio')) expect(radio).not.toBeChecked()
  })

  it('issue 29 intake: a choice being edited takes the keys only while the focus is in it', async () => {
    const fake = useFake({ answered: { ...UP_TO_CHOICE, 15: 'this_week' } })
    const { user } = renderDrawer()
    await screen.findByText('Choose a file')
    await user.click(
      screen.getByRole('button', { name: 'Edit answer: How soon do you need this?' }),
    )
    const month = await screen.findByRole('radio', { name: 'This month' })
    await user.keyboard('2')
    expect(month).toBeChecked()
    await user.click(screen.getByRole('button', { name: 'Save' }))
    await waitFor(() =>
      expect(fake.state.answerCalls.at(-1)?.body.user_request_answer).toMatchObject({
        object_satisfied_id: 15,
        value: 'this_month',
      }),
    )
  })

  it("issue 29 intake: 'Get help' from an offering starts its question with the offering's answer chosen, which can be changed", async () => {
    const fake = useFake({ answered: UP_TO_CHOICE })
    const { user } = renderDrawer({
      offeringId: 9,
      answer: { questionId: 15, value: 'this_month' },
    })
    const month = await screen.findByRole('radio', { name: 'This month' })
    expect(month).toBeChecked()
    expect(month).toHaveFocus()
    expect(continueButton()).toBeEnabled()
    // Still asked (not skipped), and the person can pick another option.
    await user.click(screen.getByRole('radio', { name: 'This week' }))
    await user.click(continueButton())
    await screen.findByText('Choose a file')
    expect(fake.state.answerCalls[0].body.user_request_answer.value).toBe('this_week')
  })

  it('issue 29 intake: an answer that is not one of the options starts nothing chosen', async () => {
    useFake({ answered: UP_TO_CHOICE })
    renderDrawer({ offeringId: 9, answer: { questionId: 15, value: 'yesterday' } })
    const group = await screen.findByRole('radiogroup', { name: /How soon/ })
    for (const radio of within(group).getAllByRole('radio')) expect(radio).not.toBeChecked()
    expect(continueButton()).toBeDisabled()
  })
})
