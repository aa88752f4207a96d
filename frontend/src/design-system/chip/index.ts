export type {
  CheckboxChipGroupProps,
  ChipButtonProps,
  ChipCheckboxProps,
  ChipExternalLinkProps,
  ChipGroupProps,
  ChipLinkProps,
  ChipProps,
  ChipRadioProps,
  ChipVariant,
  RadioChipGroupProps,
} from './Chip'
export { Chip, ChipGroup } from './Chip'
