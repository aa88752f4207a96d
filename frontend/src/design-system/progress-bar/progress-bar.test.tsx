import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { ProgressBar } from './ProgressBar'

describe('ProgressBar', () => {
  it('§2 progress bar: determinate 0–100 % exposes value, min and max', () => {
    render(<ProgressBar label="Uploading" value={42} />)
    const bar = screen.getByRole('progressbar', { name: 'Uploading' })
    expect(bar).toHaveAttribute('aria-valuenow', '42')
    expect(bar).toHaveAttribute('aria-valuemin', '0')
    expect(bar).toHaveAttribute('aria-valuemax', '100')
    expect(bar).toHaveAttribute('aria-valuetext', '42%')
    expect(screen.getByTestId('progress-fill')).toHaveStyle({ width: '42%' })
  })

  it('§2 progress bar: values are clamped to 0–100', () => {
    const { rerender } = render(<ProgressBar label="Progress" value={140} />)
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '100')
    rerender(<ProgressBar label="Progress" value={-5} />)
    expect(screen.getByRole('progressbar')).toHaveAttribute('aria-valuenow', '0')
  })

  it('§2 progress bar: indeterminate omits aria-valuenow', () => {
    render(<ProgressBar label="Loading offers" indeterminate />)
    const bar = screen.getByRole('progressbar', { name: 'Loading offers' })
    expect(bar).not.toHaveAttribute('aria-valuenow')
    expect(screen.queryByTestId('progress-fill')).not.toBeInTheDocument()
  })

  it('§2 progress bar: no value means indeterminate', () => {
    render(<ProgressBar label="Working" />)
    expect(screen.getByRole('progressbar', { name: 'Working' })).not.toHaveAttribute(
      'aria-valuenow',
    )
  })
})
