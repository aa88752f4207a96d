import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ExpectReplyBy, replyByLabel } from './ExpectReplyBy'

describe('issue 12 reply-time promises: the employee is told when to expect the first reply', () => {
  it("issue 12 SLA: 'Expect a reply by Tuesday 10:00' with the weekday and a 24-hour time", () => {
    const tuesday = new Date(2026, 10, 17, 10, 0) // local time
    const monday = new Date(2026, 10, 16, 15, 0).getTime()
    render(<ExpectReplyBy at={tuesday.toISOString()} now={monday} />)
    expect(screen.getByText(/Expect a reply by/)).toHaveTextContent(
      'Expect a reply by Tuesday 10:00',
    )
  })

  it('issue 12 SLA: a promise more than six days away also names the date', () => {
    const due = new Date(2026, 11, 28, 9, 30)
    expect(replyByLabel(due.toISOString(), new Date(2026, 11, 18).getTime())).toMatch(
      /Monday.*28.*December.*09:30|Monday, December 28.*09:30/,
    )
  })

  it('issue 12 SLA: nothing without a promise (or once the reply came)', () => {
    const { container } = render(<ExpectReplyBy at={null} />)
    expect(container).toBeEmptyDOMElement()
  })
})
