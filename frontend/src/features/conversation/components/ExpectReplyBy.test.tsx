import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ExpectReplyBy } from './ExpectReplyBy'

describe('issue 12 reply-time promises: the employee is told when to expect the first reply', () => {
  it("issue 29 time: 'Expect a reply by today 4:00 PM' for a promise due today", () => {
    const due = new Date(2026, 10, 17, 16, 0) // local time
    const morning = new Date(2026, 10, 17, 10, 0).getTime()
    render(<ExpectReplyBy at={due.toISOString()} now={morning} />)
    expect(screen.getByText(/Expect a reply by/)).toHaveTextContent(
      'Expect a reply by today 4:00 PM',
    )
    expect(screen.getByText('today 4:00 PM')).toHaveAttribute('datetime', due.toISOString())
  })

  it("issue 29 time: 'tomorrow 9:00 AM', and the weekday and date further on", () => {
    const evening = new Date(2026, 10, 17, 17, 30).getTime()
    const { rerender } = render(
      <ExpectReplyBy at={new Date(2026, 10, 18, 9, 0).toISOString()} now={evening} />,
    )
    expect(screen.getByText(/Expect a reply by/)).toHaveTextContent(
      'Expect a reply by tomorrow 9:00 AM',
    )
    rerender(<ExpectReplyBy at={new Date(2026, 10, 23, 9, 30).toISOString()} now={evening} />)
    expect(screen.getByText(/Expect a reply by/)).toHaveTextContent(
      'Expect a reply by Mon, Nov 23, 9:30 AM',
    )
  })

  it('issue 12 SLA: nothing without a promise (or once the reply came)', () => {
    const { container } = render(<ExpectReplyBy at={null} />)
    expect(container).toBeEmptyDOMElement()
  })
})
