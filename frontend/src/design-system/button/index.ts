export type {
  ButtonAsButtonProps,
  ButtonAsExternalLinkProps,
  ButtonAsLinkProps,
  ButtonProps,
  ButtonSize,
  ButtonVariant,
} from './Button'
export { Button, buttonClassName } from './Button'
