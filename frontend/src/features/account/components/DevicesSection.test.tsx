import { screen, waitFor, within } from '@testing-library/react'
import { HttpResponse, http } from 'msw'
import { beforeEach, describe, expect, it } from 'vitest'
import { renderWithProviders } from '@/test/render'
import { apiUrl, server } from '@/test/server'
import { DevicesSection } from './DevicesSection'

const HOUR = 60 * 60 * 1000
const ago = (ms: number) => new Date(Date.now() - ms).toISOString()

type Device = { id: number; device: string; signed_in_at: string; current: boolean }

/** A server holding the account's sessions: signing out removes them as the real one does. */
function devicesServer(initial: Device[]) {
  let devices = [...initial]
  server.use(
    http.get(apiUrl('/api/v1/users/devices'), () => HttpResponse.json({ devices })),
    http.delete(apiUrl('/api/v1/users/devices/:id'), ({ params }) => {
      const id = Number(params.id)
      if (!devices.some((device) => device.id === id && !device.current)) {
        return HttpResponse.json(
          { success: false, error: 'This device is already signed out.' },
          { status: 404 },
        )
      }
      devices = devices.filter((device) => device.id !== id)
      return HttpResponse.json({ success: true })
    }),
    http.delete(apiUrl('/api/v1/users/devices'), () => {
      const before = devices.length
      devices = devices.filter((device) => device.current)
      return HttpResponse.json({ signed_out: before - devices.length })
    }),
  )
  return { remove: (id: number) => (devices = devices.filter((device) => device.id !== id)) }
}

const LAPTOP = { id: 3, device: 'Chrome on Windows', signed_in_at: ago(HOUR / 2), current: true }
const PHONE = {
  id: 2,
  device: 'Mobile Safari on iPhone',
  signed_in_at: ago(3 * HOUR),
  current: false,
}
const TABLET = { id: 1, device: 'Safari on iPad', signed_in_at: ago(50 * HOUR), current: false }

describe('Signed-in devices', () => {
  beforeEach(() => devicesServer([LAPTOP, PHONE, TABLET]))

  it('Account, signed-in devices: each device with when it signed in, this one marked and not signed out from here', async () => {
    renderWithProviders(<DevicesSection />)
    const rows = await screen.findAllByTestId('signed-in-device')
    expect(rows.map((row) => row.textContent)).toEqual([
      'Chrome on WindowsSigned in 30 minutes agoThis device',
      'Mobile Safari on iPhoneSigned in 3 hours agoSign out',
      'Safari on iPadSigned in 2 days agoSign out',
    ])
    expect(within(rows[0]).queryByRole('button')).toBeNull()
    expect(
      screen.getByRole('button', {
        name: 'Sign out of Mobile Safari on iPhone, signed in 3 hours ago',
      }),
    ).toBeInTheDocument()
  })

  it('Account, signed-in devices: signing one out drops it, says so and moves the focus to the next one', async () => {
    const { user } = renderWithProviders(<DevicesSection />)
    await user.click(
      await screen.findByRole('button', { name: /Sign out of Mobile Safari on iPhone/ }),
    )
    expect(await screen.findByText('Signed out of Mobile Safari on iPhone.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getAllByTestId('signed-in-device')).toHaveLength(2))
    await waitFor(() =>
      expect(screen.getByRole('button', { name: /Sign out of Safari on iPad/ })).toHaveFocus(),
    )
    // One other device left: no 'all other devices' button for it.
    expect(screen.queryByRole('button', { name: 'Sign out of all other devices' })).toBeNull()
  })

  it('Account, signed-in devices: a device signed out meanwhile elsewhere says so and leaves the list', async () => {
    const devices = devicesServer([LAPTOP, PHONE, TABLET])
    const { user } = renderWithProviders(<DevicesSection />)
    const button = await screen.findByRole('button', { name: /Sign out of Safari on iPad/ })
    devices.remove(TABLET.id)
    await user.click(button)
    expect(await screen.findByText('This device is already signed out.')).toBeInTheDocument()
    await waitFor(() => expect(screen.queryByText('Safari on iPad')).toBeNull())
  })

  it('Account, signed-in devices: signing out of all other devices leaves this one and says how many', async () => {
    const { user } = renderWithProviders(<DevicesSection />)
    await user.click(await screen.findByRole('button', { name: 'Sign out of all other devices' }))
    expect(await screen.findByText('Signed out of 2 other devices.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getAllByTestId('signed-in-device')).toHaveLength(1))
    const summary = screen.getByText('Only this device is signed in to your account.')
    await waitFor(() => expect(summary).toHaveFocus())
  })

  it('Account, signed-in devices: a list that failed to load says so and loads again on Retry', async () => {
    let fail = true
    server.use(
      http.get(apiUrl('/api/v1/users/devices'), () =>
        fail
          ? HttpResponse.json({ success: false, error: 'boom' }, { status: 500 })
          : HttpResponse.json({ devices: [LAPTOP] }),
      ),
    )
    const { user } = renderWithProviders(<DevicesSection />)
    const alert = await screen.findByRole('alert')
    expect(alert).toHaveTextContent('We couldn’t load your signed-in devices.')
    fail = false
    await user.click(within(alert).getByRole('button', { name: 'Retry' }))
    expect(
      await screen.findByText('Only this device is signed in to your account.'),
    ).toBeInTheDocument()
  })
})
