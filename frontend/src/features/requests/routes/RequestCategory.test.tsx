import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { fakeSurveyServer } from '@/test/fakeSurveyServer'
import { makeUser, renderWithProviders } from '@/test/render'
import { RequestDrawerProvider } from '@/test/requestDrawer'
import { apiUrl, server } from '@/test/server'
import RequestCategory, { CATEGORY_NOT_FOUND_TITLE } from './RequestCategory'

vi.mock('canvas-confetti', () => ({ default: vi.fn() }))

function renderCategory(route = '/requests/category/4') {
  return renderWithProviders(
    <RequestDrawerProvider>
      <RequestCategory />
    </RequestDrawerProvider>,
    { route, path: '/requests/category/:categoryId', user: makeUser() },
  )
}

function categoryOk() {
  return http.get(apiUrl('/api/v1/survey_categories/4/request_surveys'), () =>
    HttpResponse.json({
      survey_category: { id: 4, name: 'Pet', icon: 'pet', image_url: null },
      request_surveys: [
        { id: 41, name: 'Find a dog walker', slug: 'dog-walker', for_alpha: true },
        { id: 43, name: 'Book a vet visit', slug: 'vet', for_alpha: true },
      ],
    }),
  )
}

describe('RequestCategory', () => {
  it("§2 RequestCategory: the category's heading and icon, its request surveys as buttons, and a way back", async () => {
    server.use(categoryOk())
    renderCategory()
    expect(screen.getByRole('status', { name: 'Loading category' })).toBeInTheDocument()
    expect(await screen.findByRole('heading', { level: 1, name: 'Pet' })).toBeInTheDocument()
    expect(document.querySelector('[data-category-icon="pet"]')).not.toBeNull()
    const list = screen.getByRole('list', { name: 'Pet requests' })
    expect(
      within(list)
        .getAllByRole('button')
        .map((b) => b.textContent),
    ).toEqual(['Find a dog walker', 'Book a vet visit'])
    expect(screen.getByRole('link', { name: 'Back to dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    )
  })

  it('§2 RequestCategory: a request survey button begins a request in the drawer', async () => {
    const fake = fakeSurveyServer({ surveyId: 43, surveyName: 'Book a vet visit' })
    server.use(categoryOk(), ...fake.list)
    const { user } = renderCategory()
    await user.click(await screen.findByRole('button', { name: 'Book a vet visit' }))
    expect(await screen.findByRole('dialog', { name: 'Book a vet visit' })).toBeInTheDocument()
    await waitFor(() =>
      expect(fake.state.begins).toEqual([
        { surveyId: 43, body: { for_alpha: true, start_over: false } },
      ]),
    )
  })

  it('§2 RequestCategory: an unknown category (404) shows a friendly not-found state', async () => {
    server.use(
      http.get(apiUrl('/api/v1/survey_categories/999/request_surveys'), () =>
        HttpResponse.json({ success: false, error: 'Survey category not found' }, { status: 404 }),
      ),
    )
    renderCategory('/requests/category/999')
    expect(
      await screen.findByRole('heading', { level: 1, name: CATEGORY_NOT_FOUND_TITLE }),
    ).toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Penny' })).toBeInTheDocument()
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    )
  })

  it('§2 RequestCategory: a category id that is not a number is not found, without a call', () => {
    renderCategory('/requests/category/pets')
    expect(
      screen.getByRole('heading', { level: 1, name: CATEGORY_NOT_FOUND_TITLE }),
    ).toBeInTheDocument()
  })

  it('§8 RequestCategory: another failure is logged and offers Retry', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    let ok = false
    server.use(
      http.get(apiUrl('/api/v1/survey_categories/4/request_surveys'), () => {
        if (!ok) return HttpResponse.json({ success: false, error: 'Down' }, { status: 500 })
      }),
      categoryOk(),
    )
    const { user } = renderCategory()
    const alert = await screen.findByRole('alert', {}, { timeout: 4000 })
    expect(alert).toHaveTextContent("We couldn't load this category.")
    expect(errors).toHaveBeenCalledWith('Failed to fetch request surveys', expect.anything())
    ok = true
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(await screen.findByRole('heading', { level: 1, name: 'Pet' })).toBeInTheDocument()
  })
})
