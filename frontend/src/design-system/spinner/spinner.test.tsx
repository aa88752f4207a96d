import { render, screen } from '@testing-library/react'
import { describe, expect, it } from 'vitest'
import { Spinner } from './Spinner'

describe('Spinner', () => {
  it('§2 spinner: announces itself as a status labelled "Loading" by default', () => {
    render(<Spinner />)
    expect(screen.getByRole('status', { name: 'Loading' })).toBeInTheDocument()
  })

  it('§2 spinner: inside another control it is a labelled image, not a live region', () => {
    render(<Spinner announce={false} label="Saving" />)
    expect(screen.queryByRole('status')).not.toBeInTheDocument()
    expect(screen.getByRole('img', { name: 'Saving' })).toBeInTheDocument()
  })
})
