import { screen, waitFor, within } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { useCurrentUser } from '@/lib/currentUser'
import { fakeSurveyServer, QUESTIONS } from '@/test/fakeSurveyServer'
import { makeUser, renderWithProviders } from '@/test/render'
import { server, TEST_SITE } from '@/test/server'
import { AppLayout } from './AppLayout'

function Probe() {
  const user = useCurrentUser()
  return <p>Screen for {user.first_name}</p>
}

function renderShell(user = makeUser(), route = '/dashboard') {
  return renderWithProviders(<AppLayout />, {
    route,
    user,
    routes: [
      { path: '/dashboard', element: <Probe /> },
      { path: '/requests', element: <Probe /> },
    ],
  })
}

describe('AppLayout', () => {
  it('§2 SignUp legal links: the footer links to the terms of use and privacy policy of TERMS_URL and PRIVACY_URL', async () => {
    renderShell()
    const footer = screen.getByRole('contentinfo')
    const legal = await within(footer).findByRole('navigation', { name: 'Legal' })
    expect(within(legal).getByRole('link', { name: /Terms of Use/ })).toHaveAttribute(
      'href',
      TEST_SITE.terms_url,
    )
    expect(within(legal).getByRole('link', { name: /Privacy Policy/ })).toHaveAttribute(
      'href',
      TEST_SITE.privacy_url,
    )
  })

  it('§2 navigation: Dashboard, Requests, Benefits & Offers and Account with the initials', () => {
    renderShell(makeUser({ initials: 'JD' }))
    const [desktop] = screen.getAllByRole('navigation', { name: 'Main' })
    const nav = within(desktop)
    expect(nav.getByRole('link', { name: 'Dashboard' })).toHaveAttribute('href', '/dashboard')
    expect(nav.getByRole('link', { name: 'Requests' })).toHaveAttribute('href', '/requests')
    expect(nav.getByRole('link', { name: 'Benefits & Offers' })).toHaveAttribute(
      'href',
      '/benefits-and-offers',
    )
    const account = nav.getByRole('link', { name: 'Account' })
    expect(account).toHaveAttribute('href', '/account')
    expect(account.querySelector('[data-initials="JD"]')).not.toBeNull()
  })

  it('§2 navigation: the active screen is marked as the current page', () => {
    renderShell(makeUser(), '/requests')
    for (const nav of screen.getAllByRole('navigation', { name: 'Main' })) {
      expect(within(nav).getByRole('link', { name: 'Requests' })).toHaveAttribute(
        'aria-current',
        'page',
      )
      expect(within(nav).getByRole('link', { name: 'Dashboard' })).not.toHaveAttribute(
        'aria-current',
      )
    }
  })

  it('§2 navigation: the mobile bottom bar has a create-request button that opens the request drawer on survey 603', async () => {
    const fake = fakeSurveyServer({ surveyId: 603 })
    server.use(...fake.list)
    const { user, router } = renderShell(makeUser(), '/requests')
    const bar = screen.getAllByRole('navigation', { name: 'Main' })[1]
    await user.click(within(bar).getByRole('button', { name: 'Create a request' }))
    const drawer = await screen.findByRole('dialog', { name: 'Tell us what you need' })
    expect(
      await within(drawer).findByRole('textbox', { name: QUESTIONS[0].label }),
    ).toBeInTheDocument()
    expect(fake.state.begins).toEqual([
      { surveyId: 603, body: { for_alpha: true, start_over: false } },
    ])
    expect(router.state.location.pathname).toBe('/requests')
  })

  it('§2 shell: passes the signed-in user through to the screen and offers a skip link', () => {
    renderShell(makeUser({ first_name: 'Ada' }))
    expect(screen.getByText('Screen for Ada')).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Skip to content' })).toHaveAttribute(
      'href',
      '#main-content',
    )
    expect(screen.getByRole('main')).toHaveAttribute('id', 'main-content')
  })

  it("§1 'Brought to you by': the sponsoring companies show as logos or names", () => {
    renderShell(
      makeUser({
        companies: [
          { id: 1, name: 'Acme Corp', image_url: 'https://cdn.example.com/acme.png' },
          { id: 2, name: 'Globex', image_url: null },
        ],
      }),
    )
    const block = screen.getByRole('region', { name: 'Brought to you by' })
    expect(within(block).getByRole('img', { name: 'Acme Corp' })).toHaveAttribute(
      'src',
      'https://cdn.example.com/acme.png',
    )
    expect(within(block).getByText('Globex')).toBeInTheDocument()
  })

  it('§4 onboarding: a user who still owes onboarding is sent to AboutUs', async () => {
    const { router } = renderShell(makeUser({ onboarding_required: true }))
    await waitFor(() => expect(router.state.location.pathname).toBe('/welcome/about-us'))
  })
})
