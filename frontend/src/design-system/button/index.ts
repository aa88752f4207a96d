export { Button, buttonClassName } from './Button';
export type {
  ButtonAsButtonProps,
  ButtonAsExternalLinkProps,
  ButtonAsLinkProps,
  ButtonProps,
  ButtonSize,
  ButtonVariant,
} from './Button';
