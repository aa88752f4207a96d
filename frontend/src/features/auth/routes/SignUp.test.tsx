import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { errorResponse, signInOk, signUpCompanyOk } from '@/test/handlers'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server, TEST_SITE } from '@/test/server'
import SignUp from './SignUp'

function renderSignUpPage(route = '/sign-up/acme') {
  return renderWithProviders(<SignUp />, { route, path: '/sign-up/:companySlug?' })
}

/** The page under a company slug once the company was looked up: the form. */
async function renderSignUp(route = '/sign-up/acme') {
  const rendered = renderSignUpPage(route)
  await screen.findByRole('button', { name: 'Create account' })
  return rendered
}

function signUpOk(capture?: (body: unknown) => void) {
  return http.post(apiUrl('/api/v1/users/sign_up'), async ({ request }) => {
    const body = (await request.json()) as { user: { email: string } }
    capture?.(body)
    return HttpResponse.json({
      success: true,
      data: JSON.stringify({ email: body.user.email }),
    })
  })
}

type User = ReturnType<typeof renderSignUpPage>['user']

async function fill(user: User, values: Record<string, string>) {
  for (const [label, value] of Object.entries(values)) {
    await user.type(screen.getByLabelText(label), value)
  }
}

const VALID = {
  'First name': 'Jane',
  'Last name': 'Doe',
  'Email address': 'jane@example.com',
  Password: 'secret123',
}

describe('SignUp', () => {
  beforeEach(() => server.use(signUpCompanyOk()))

  it('§5 sign-up: empty fields show the first name, last name, email and password messages', async () => {
    const { user } = await renderSignUp()
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Please enter your first name')).toBeInTheDocument()
    expect(screen.getByText('Please enter your last name')).toBeInTheDocument()
    expect(screen.getByText('Please enter your email address')).toBeInTheDocument()
    expect(screen.getByText('Please enter your password')).toBeInTheDocument()
  })

  it('§2 sign-up: with a company slug in the URL there is no company code field', async () => {
    await renderSignUp('/sign-up/acme')
    expect(screen.queryByLabelText('Company code')).not.toBeInTheDocument()
  })

  it("Issue 15 sign-up without a slug: the page explains the company's sign-up link is needed, with no form", () => {
    renderSignUpPage('/sign-up')
    expect(
      screen.getByRole('heading', { level: 1, name: 'Sign up with your company’s link' }),
    ).toBeInTheDocument()
    expect(screen.getByText(/each company has its own sign-up link/)).toBeInTheDocument()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(screen.queryByLabelText('Company code')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: /Contact support/ })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
    expect(screen.getByRole('link', { name: 'Sign in to an existing account' })).toHaveAttribute(
      'href',
      '/sign-in',
    )
  })

  it('§3 sign-up payload: sends name, last_name, the URL company slug and terms_of_service 1; then AboutUs', async () => {
    let sent: unknown
    server.use(
      signUpOk((body) => (sent = body)),
      signInOk(),
    )
    const { user, router } = await renderSignUp('/sign-up/acme')
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/about-us'))
    expect(sent).toEqual({
      user: {
        email: 'jane@example.com',
        password: 'secret123',
        name: 'Jane',
        last_name: 'Doe',
        company_slug: 'acme',
        terms_of_service: 1,
      },
    })
  })

  it('Hardening 9: the invite token in the URL is sent with the sign-up', async () => {
    let sent: { user?: Record<string, unknown> } = {}
    server.use(
      signUpOk((body) => (sent = body as typeof sent)),
      signInOk(),
    )
    const { user, router } = await renderSignUp('/sign-up/hooli?invite=tok-123')
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/about-us'))
    expect(sent.user).toMatchObject({ company_slug: 'hooli', invite: 'tok-123' })
  })

  it('Hardening 9: a refused invite shows the server message', async () => {
    const message =
      'This invite link is invalid, used up or expired. Please ask your employer for a new one.'
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () =>
        errorResponse(422, message, { invite: [message] }),
      ),
    )
    const { user } = await renderSignUp('/sign-up/hooli?invite=used')
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText(message)).toBeInTheDocument()
  })

  it('§4 sign-up: when the automatic sign-in reports MFA enrolment available it goes to MfaEnrollment', async () => {
    server.use(signUpOk(), signInOk({ mfaRequiresVerification: true }))
    const { user, router } = await renderSignUp('/sign-up/acme')
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/mfa-enrollment'))
  })

  it('§8 sign-up 422: server field errors show under their fields', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () =>
        errorResponse(422, 'This email is already registered.', {
          email: ['This email is already registered.'],
        }),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('This email is already registered.')).toBeInTheDocument()
    expect(screen.getByLabelText('Email address')).toHaveAttribute('aria-invalid', 'true')
    expect(screen.queryByRole('alert')).not.toBeInTheDocument()
  })

  it('§8 sign-up 422: the first field the server refused takes the focus, in form order', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () =>
        errorResponse(422, 'This password is too common.', {
          password: ['This password is too common.'],
          email: ['Please sign up with your work email.'],
        }),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    const email = screen.getByLabelText('Email address')
    await waitFor(() => expect(email).toHaveFocus())
    expect(email).toHaveAccessibleDescription('Please sign up with your work email.')
    expect(screen.getByLabelText('Password')).toHaveAccessibleDescription(
      /This password is too common\./,
    )
  })

  it('§5 sign-up: a server error shows on its field and clears once that field changes', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () =>
        errorResponse(422, 'This email is already registered.', {
          email: ['This email is already registered.'],
        }),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    const email = screen.getByLabelText('Email address')
    expect(await screen.findByText('This email is already registered.')).toBeInTheDocument()
    expect(email).toHaveAccessibleDescription('This email is already registered.')
    await user.type(screen.getByLabelText('First name'), 'ne')
    expect(screen.getByText('This email is already registered.')).toBeInTheDocument()
    await user.clear(email)
    await user.type(email, 'jane.doe@example.com')
    await waitFor(() =>
      expect(screen.queryByText('This email is already registered.')).not.toBeInTheDocument(),
    )
    expect(email).not.toHaveAttribute('aria-invalid')
  })

  it('§5 sign-up: the first invalid field takes the focus', async () => {
    const { user } = await renderSignUp()
    await user.type(screen.getByLabelText('First name'), 'Jane')
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText('Please enter your last name')).toBeInTheDocument()
    expect(screen.getByLabelText('Last name')).toHaveFocus()
  })

  it('§8 sign-up 401: without a server error text the status message shows in the error box', async () => {
    server.use(
      http.post(apiUrl('/api/v1/users/sign_up'), () =>
        HttpResponse.json({}, { status: 401, statusText: 'Unauthorized' }),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Unauthorized')
  })

  it('§2 sign-up: links to the terms of use and privacy policy of TERMS_URL and PRIVACY_URL, and sign in', async () => {
    await renderSignUp()
    const terms = await screen.findByRole('link', { name: /Terms of Use/ })
    expect(terms).toHaveAttribute('href', TEST_SITE.terms_url)
    expect(terms).toHaveAttribute('target', '_blank')
    const privacy = screen.getByRole('link', { name: /Privacy Policy/ })
    expect(privacy).toHaveAttribute('href', TEST_SITE.privacy_url)
    expect(privacy).toHaveAttribute('target', '_blank')
    expect(screen.getByRole('link', { name: 'Sign in' })).toHaveAttribute('href', '/sign-in')
  })

  it('§2 sign-up: the page names the company of the link, with its logo', async () => {
    server.use(signUpCompanyOk({ name: 'Globex', logo_url: 'https://cdn.example.com/globex.png' }))
    const { container } = await renderSignUp('/sign-up/globex')
    expect(screen.getByRole('heading', { level: 1, name: 'Join Globex' })).toBeInTheDocument()
    expect(screen.getByText(/^Create your account\./)).toBeInTheDocument()
    expect(container.querySelector('img')).toHaveAttribute(
      'src',
      'https://cdn.example.com/globex.png',
    )
  })

  it('§2 sign-up: a company without a logo is named without an image', async () => {
    const { container } = await renderSignUp()
    expect(screen.getByRole('heading', { level: 1, name: 'Join Acme Corp' })).toBeInTheDocument()
    expect(container.querySelector('img')).toBeNull()
  })

  it('§5 sign-up: an unknown company slug is answered on load, with no form and a support link', async () => {
    server.use(signUpCompanyOk(null))
    renderSignUpPage('/sign-up/no-such-company')
    expect(
      await screen.findByRole('heading', { level: 1, name: 'This sign-up link doesn’t work' }),
    ).toBeInTheDocument()
    expect(
      screen.getByText(
        "We couldn't find that company. Please check the sign-up link from your employer.",
      ),
    ).toBeInTheDocument()
    expect(screen.queryByRole('textbox')).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Create account' })).not.toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Contact support' })).toHaveAttribute(
      'href',
      'mailto:support@example.com',
    )
    expect(screen.getByRole('link', { name: 'Sign in to an existing account' })).toHaveAttribute(
      'href',
      '/sign-in',
    )
  })

  it('§2 sign-up: when the company cannot be looked up the form still shows, unnamed', async () => {
    server.use(
      http.get(apiUrl('/api/v1/users/sign_up/companies/:slug'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    await renderSignUp()
    expect(
      screen.getByRole('heading', { level: 1, name: 'Create your account' }),
    ).toBeInTheDocument()
  })

  it('§4 sign-up: an email that already has an account shows the same "Check your email" (focused), not a sign-in error', async () => {
    server.use(
      signUpOk(),
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        errorResponse(401, 'Invalid email or password.'),
      ),
    )
    const { user, router } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('heading', { name: 'Check your email' })).toBeInTheDocument()
    expect(screen.getByRole('status')).toHaveTextContent('We’ve sent an email to jane@example.com.')
    expect(screen.getByRole('status')).toHaveFocus()
    expect(screen.queryByText('Invalid email or password.')).not.toBeInTheDocument()
    expect(router.state.location.pathname).toBe('/sign-up/acme')
  })

  it('§2 sign-up at 375 px: a long email in "Check your email" wraps instead of widening the page', async () => {
    const longEmail =
      'firstname.middlename.lastname@subsidiary.company-with-a-long-name.example.com'
    server.use(
      signUpOk(),
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        errorResponse(401, 'Invalid email or password.'),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, { ...VALID, 'Email address': longEmail })
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByText(longEmail)).toHaveClass('break-all')
  })

  it('§8 sign-up: an automatic sign-in refused for too many attempts shows that error, not "Check your email"', async () => {
    server.use(
      signUpOk(),
      http.post(apiUrl('/api/v1/users/sign_in'), () =>
        errorResponse(429, 'Too many attempts. Please wait a minute and try again.'),
      ),
    )
    const { user } = await renderSignUp()
    await fill(user, VALID)
    await user.click(screen.getByRole('button', { name: 'Create account' }))
    expect(await screen.findByRole('alert')).toHaveTextContent('Too many attempts.')
    expect(screen.queryByRole('heading', { name: 'Check your email' })).not.toBeInTheDocument()
  })
})
