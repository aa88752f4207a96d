import { screen, waitFor } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { makeUser, renderWithProviders, signInSession } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { ActivityLog } from './ActivityLog'

beforeEach(() => signInSession())

const event = (id: number, action: string) => ({
  id,
  occurred_at: '2026-11-24T10:02:00Z',
  action,
  actor_name: 'Harper',
  actor_role: 'company admin',
  target_type: 'employee_record',
  target_id: '4',
  details: {},
})

describe('ActivityLog (issue 27: the company admin sees their company administration)', () => {
  it('lists the events newest first and pages back', async () => {
    const asked: (string | null)[] = []
    server.use(
      http.get(apiUrl('/api/v1/company/3/audit'), ({ request }) => {
        const before = new URL(request.url).searchParams.get('before')
        asked.push(before)
        return before
          ? HttpResponse.json({ events: [event(1, 'company.invite.sent')], next_before: null })
          : HttpResponse.json({
              events: [event(2, 'company.member.deactivated')],
              next_before: 2,
            })
      }),
    )
    const { user } = renderWithProviders(<ActivityLog companyId={3} />, { user: makeUser() })
    expect(await screen.findByText('Deactivated a member')).toBeInTheDocument()
    await user.click(screen.getByRole('button', { name: 'Show older' }))
    expect(await screen.findByText('Created an invite link')).toBeInTheDocument()
    expect(asked).toEqual([null, '2'])
    expect(screen.queryByRole('button', { name: 'Show older' })).not.toBeInTheDocument()
  })

  it('after the oldest events are shown, the focus goes to the log, not lost with the button', async () => {
    server.use(
      http.get(apiUrl('/api/v1/company/3/audit'), ({ request }) =>
        new URL(request.url).searchParams.get('before')
          ? HttpResponse.json({ events: [event(1, 'company.invite.sent')], next_before: null })
          : HttpResponse.json({ events: [event(2, 'company.member.deactivated')], next_before: 2 }),
      ),
    )
    const { user } = renderWithProviders(<ActivityLog companyId={3} />, { user: makeUser() })
    await user.click(await screen.findByRole('button', { name: 'Show older' }))
    expect(await screen.findByText('Created an invite link')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Activity log' })).toHaveFocus())
  })

  it('shows a change made on the page as soon as it succeeds, without a reload', async () => {
    let events = [event(2, 'company.member.deactivated')]
    server.use(
      http.get(apiUrl('/api/v1/company/3/audit'), () =>
        HttpResponse.json({ events, next_before: null }),
      ),
    )
    const { queryClient } = renderWithProviders(<ActivityLog companyId={3} />, {
      user: makeUser(),
    })
    expect(await screen.findByText('Deactivated a member')).toBeInTheDocument()
    events = [event(3, 'company.invite.sent'), ...events]
    // Any change of the page (here an invite link made) is a mutation that succeeds.
    await queryClient
      .getMutationCache()
      .build(queryClient, { mutationFn: async () => 'made' })
      .execute(undefined)
    expect(await screen.findByText('Created an invite link')).toBeInTheDocument()
  })
})
