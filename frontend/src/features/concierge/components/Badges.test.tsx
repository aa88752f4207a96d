import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { SlaBadge } from './Badges'

describe("issue 29 'Time, everywhere the same': the desk's reply-time badge", () => {
  const now = new Date(2026, 10, 25, 14, 0).getTime() // local time

  it("issue 29 time: 'First reply due today 4:00 PM' on the badge's tooltip and for screen readers", () => {
    const due = new Date(2026, 10, 25, 16, 0).toISOString()
    render(
      <SlaBadge sla={{ state: 'on_track', due_at: due, target: 'first_response' }} now={now} />,
    )
    const badge = screen.getByText('Due in 2 h').closest('[data-sla]')
    expect(badge).toHaveAttribute('title', 'First reply due today 4:00 PM')
    expect(badge).toHaveTextContent('Due in 2 h. First reply due today 4:00 PM')
  })

  it("issue 29 time: an overdue resolution names the day it was due ('Mon, Nov 23, 9:00 AM')", () => {
    const due = new Date(2026, 10, 23, 9, 0).toISOString()
    render(<SlaBadge sla={{ state: 'overdue', due_at: due, target: 'resolution' }} now={now} />)
    const badge = screen.getByText(/^Overdue/).closest('[data-sla]')
    expect(badge).toHaveAttribute('title', 'Resolution due Mon, Nov 23, 9:00 AM')
  })
})
