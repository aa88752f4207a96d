import { render, screen } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { MemoryRouter, Route, Routes } from 'react-router'
import { describe, expect, it, vi } from 'vitest'
import { Chip, ChipGroup } from './Chip'

describe('Chip', () => {
  it('§2 chip: button variant is named by its title and described by its description', async () => {
    const onPress = vi.fn()
    render(
      <Chip
        label="Plan a trip"
        description="Flights, hotels and itineraries"
        onPress={onPress}
        image="default"
      />,
    )
    const chip = screen.getByRole('button', { name: 'Plan a trip' })
    expect(chip).toHaveAccessibleDescription('Flights, hotels and itineraries')
    await userEvent.click(chip)
    expect(onPress).toHaveBeenCalledTimes(1)
  })

  it('§2 chip: disabled chips ignore interaction', async () => {
    const onPress = vi.fn()
    render(<Chip label="Plan a trip" description="Trips" onPress={onPress} isDisabled />)
    const chip = screen.getByRole('button', { name: 'Plan a trip' })
    expect(chip).toBeDisabled()
    await userEvent.click(chip)
    expect(onPress).not.toHaveBeenCalled()
  })

  it('§2 chip: optional error state marks the chip', () => {
    render(<Chip label="Plan a trip" description="Trips" error />)
    const chip = screen.getByRole('button', { name: 'Plan a trip' })
    expect(chip).toHaveAttribute('aria-invalid', 'true')
    expect(chip).toHaveClass('border-danger-600')
  })

  it('§9 chip: title and description are clamped to 2 lines', () => {
    render(<Chip label="A very long title" description="A very long description" />)
    expect(screen.getByText('A very long title')).toHaveClass('line-clamp-2')
    expect(screen.getByText('A very long description')).toHaveClass('line-clamp-2')
  })

  it('§9 chip: the title and description box is 9rem x 3.5rem (w-chip, h-chip-box)', () => {
    render(<Chip label="Title" description="Description" />)
    const box = screen.getByText('Title').parentElement as HTMLElement
    expect(box).toHaveClass('w-chip', 'h-chip-box', 'overflow-hidden')
    expect(box).toContainElement(screen.getByText('Description'))
  })

  it('issue 29 intake: a stretched chip fills the row on a phone and keeps the 9rem x 3.5rem box from sm up', () => {
    render(<Chip label="Title" description="" stretch />)
    const chip = screen.getByRole('button', { name: 'Title' })
    expect(chip).toHaveClass('w-full', 'sm:w-auto')
    const box = screen.getByText('Title').parentElement as HTMLElement
    expect(box).toHaveClass('flex-1', 'sm:w-chip', 'sm:h-chip-box')
    expect(box).not.toHaveClass('w-chip', 'h-chip-box')
  })

  it('issue 29 intake: a chip without a description centres its title and describes nothing', () => {
    render(<Chip label="Title" description="" />)
    const chip = screen.getByRole('button', { name: 'Title' })
    expect(chip).not.toHaveAttribute('aria-describedby')
    expect(screen.getByText('Title').parentElement).toHaveClass('justify-center')
    expect(screen.getByText('Title').parentElement?.children).toHaveLength(1)
  })

  it('issue 29 intake: a key hint shows beside the title, hidden on touch screens and from screen readers', () => {
    render(<Chip label="Title" description="Description" keyHint="3" />)
    const hint = screen.getByText('3')
    expect(hint).toHaveAttribute('aria-hidden', 'true')
    expect(hint).toHaveClass('pointer-coarse:hidden')
    expect(screen.getByRole('button', { name: 'Title' })).toHaveAccessibleDescription('Description')
  })

  it('§4 widget states: chips ripple when pressed (the ripple utility)', () => {
    render(<Chip label="Title" description="Description" />)
    expect(screen.getByRole('button', { name: 'Title' })).toHaveClass('ripple')
  })

  it('§2 chip: link variant navigates to an internal route', async () => {
    render(
      <MemoryRouter>
        <Routes>
          <Route
            path="/"
            element={
              <Chip variant="link" to="/requests/category/3" label="Home" description="Repairs" />
            }
          />
          <Route path="/requests/category/3" element={<p>Category page</p>} />
        </Routes>
      </MemoryRouter>,
    )
    const link = screen.getByRole('link', { name: 'Home' })
    expect(link).toHaveAttribute('href', '/requests/category/3')
    await userEvent.click(link)
    expect(screen.getByText('Category page')).toBeInTheDocument()
  })

  it('§2 chip: a disabled link chip is not a working link', () => {
    render(
      <MemoryRouter>
        <Chip variant="link" to="/x" label="Home" description="Repairs" isDisabled />
      </MemoryRouter>,
    )
    const link = screen.getByRole('link', { name: 'Home' })
    expect(link).toHaveAttribute('aria-disabled', 'true')
    expect(link).not.toHaveAttribute('href')
  })

  it('§2 chip: external-link variant opens a new tab without opener/referrer', () => {
    render(
      <Chip
        variant="external-link"
        href="https://partner.example.com"
        label="Partner"
        description="Get a quote"
      />,
    )
    const link = screen.getByRole('link', { name: 'Partner (opens in a new tab)' })
    expect(link).toHaveAttribute('target', '_blank')
    expect(link).toHaveAttribute('rel', 'noopener noreferrer')
    expect(link).toHaveAccessibleDescription('Get a quote')
  })
})

describe('ChipGroup', () => {
  it('§2 chip: radio chips form a radio group with single selection', async () => {
    const onChange = vi.fn()
    render(
      <ChipGroup type="radio" label="Do you own a home?" onChange={onChange}>
        <Chip variant="radio" value="yes" label="Yes" description="I own my home" />
        <Chip variant="radio" value="no" label="No" description="I rent or live with family" />
      </ChipGroup>,
    )
    expect(screen.getByRole('radiogroup', { name: 'Do you own a home?' })).toBeInTheDocument()
    const yes = screen.getByRole('radio', { name: 'Yes' })
    const no = screen.getByRole('radio', { name: 'No' })
    expect(yes).toHaveAccessibleDescription('I own my home')
    await userEvent.click(screen.getByText('Yes'))
    expect(yes).toBeChecked()
    await userEvent.click(screen.getByText('No'))
    expect(no).toBeChecked()
    expect(yes).not.toBeChecked()
    expect(onChange).toHaveBeenLastCalledWith('no')
  })

  it('§2 chip: radio chips move with arrow keys', async () => {
    render(
      <ChipGroup type="radio" label="Pick" defaultValue="a">
        <Chip variant="radio" value="a" label="A" description="first" />
        <Chip variant="radio" value="b" label="B" description="second" />
      </ChipGroup>,
    )
    await userEvent.tab()
    expect(screen.getByRole('radio', { name: 'A' })).toHaveFocus()
    await userEvent.keyboard('{ArrowDown}')
    expect(screen.getByRole('radio', { name: 'B' })).toBeChecked()
  })

  it('§2 chip: checkbox chips allow several choices; disabled ones ignore clicks', async () => {
    const onChange = vi.fn()
    render(
      <ChipGroup type="checkbox" label="Which apply to you?" onChange={onChange}>
        <Chip variant="checkbox" value="car" label="Car" description="I own a car" />
        <Chip variant="checkbox" value="pet" label="Pet" description="I have a pet" />
        <Chip variant="checkbox" value="kid" label="Kids" description="I am a parent" isDisabled />
      </ChipGroup>,
    )
    await userEvent.click(screen.getByText('Car'))
    await userEvent.click(screen.getByText('Pet'))
    await userEvent.click(screen.getByText('Kids'))
    expect(screen.getByRole('checkbox', { name: 'Car' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Pet' })).toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Kids' })).not.toBeChecked()
    expect(screen.getByRole('checkbox', { name: 'Kids' })).toBeDisabled()
    expect(onChange).toHaveBeenLastCalledWith(['car', 'pet'])
  })

  it('§2 chip: group error state shows the message and marks the group invalid', () => {
    render(
      <ChipGroup type="radio" label="Pick one" error="Please choose an option">
        <Chip variant="radio" value="a" label="A" description="first" />
      </ChipGroup>,
    )
    expect(screen.getByText('Please choose an option')).toBeInTheDocument()
    expect(screen.getByRole('radiogroup')).toHaveAttribute('aria-invalid', 'true')
  })
})
