import type { AnchorHTMLAttributes, ButtonHTMLAttributes, ReactNode, Ref } from 'react'
import { Link as RouterLink, type LinkProps as RouterLinkProps } from 'react-router'
import { Spinner } from '../spinner'
import { cx, focusRing } from '../utils'

export type ButtonVariant = 'primary' | 'secondary' | 'tertiary' | 'danger'
export type ButtonSize = 'md' | 'sm'

interface ButtonOwnProps {
  /** Visual weight. Default 'primary'. */
  variant?: ButtonVariant
  /** Default 'md' (44 px touch target). */
  size?: ButtonSize
  /** Stretch to the container's width. */
  fullWidth?: boolean
  /** Optional icon (e.g. a lucide-react icon element); decorative. */
  icon?: ReactNode
  /** Where the icon sits relative to the text. Default 'start'. */
  iconPosition?: 'start' | 'end'
  children?: ReactNode
  className?: string
}

export interface ButtonAsButtonProps
  extends ButtonOwnProps,
    Omit<ButtonHTMLAttributes<HTMLButtonElement>, 'type' | 'children' | 'className'> {
  /** Default 'button'. */
  type?: 'button' | 'submit'
  /** Disables the button, marks it aria-busy and shows a spinner labelled 'Loading'. */
  loading?: boolean
  to?: never
  href?: never
  ref?: Ref<HTMLButtonElement>
}

export interface ButtonAsLinkProps
  extends ButtonOwnProps,
    Omit<RouterLinkProps, 'to' | 'children' | 'className'> {
  /** Internal route: renders a React Router <Link>. */
  to: RouterLinkProps['to']
  href?: never
  loading?: never
  ref?: Ref<HTMLAnchorElement>
}

export interface ButtonAsExternalLinkProps
  extends ButtonOwnProps,
    Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href' | 'children' | 'className'> {
  /** External address: opens in a new tab with rel="noopener noreferrer". */
  href: string
  to?: never
  loading?: never
  ref?: Ref<HTMLAnchorElement>
}

export type ButtonProps = ButtonAsButtonProps | ButtonAsLinkProps | ButtonAsExternalLinkProps

const variants: Record<ButtonVariant, string> = {
  primary:
    'bg-primary-600 text-white shadow-xs hover:bg-primary-700 active:bg-primary-800 ' +
    'disabled:bg-neutral-200 disabled:text-neutral-600 disabled:shadow-none ' +
    'aria-busy:bg-primary-600 aria-busy:text-white aria-busy:opacity-85',
  secondary:
    'border border-primary-600 bg-surface text-primary-700 hover:bg-primary-50 active:bg-primary-100 ' +
    'disabled:border-neutral-300 disabled:bg-surface disabled:text-neutral-500 ' +
    'aria-busy:border-primary-600 aria-busy:text-primary-700',
  tertiary:
    'text-primary-700 hover:bg-primary-50 active:bg-primary-100 underline-offset-4 hover:underline ' +
    'disabled:bg-transparent disabled:text-neutral-500 disabled:no-underline aria-busy:text-primary-700',
  // A destructive choice (discard, delete): outlined in red, never the filled primary look.
  danger:
    'border border-danger-600 bg-surface text-danger-700 hover:bg-danger-50 active:bg-danger-100 ' +
    'disabled:border-neutral-300 disabled:text-neutral-500 aria-busy:text-danger-700',
}

const sizes: Record<ButtonSize, string> = {
  md: 'min-h-11 px-5 py-2 text-base gap-2',
  sm: 'min-h-9 px-4 py-1.5 text-sm gap-1.5',
}

export function buttonClassName({
  variant = 'primary',
  size = 'md',
  fullWidth = false,
  className,
}: Pick<ButtonOwnProps, 'variant' | 'size' | 'fullWidth' | 'className'> = {}): string {
  return cx(
    'inline-flex items-center justify-center rounded-full font-semibold text-center no-underline',
    'transition-colors duration-150 motion-reduce:transition-none select-none ripple',
    'disabled:cursor-not-allowed aria-busy:cursor-progress',
    focusRing,
    variants[variant],
    sizes[size],
    fullWidth ? 'w-full' : 'w-auto',
    className,
  )
}

function Content({
  icon,
  iconPosition = 'start',
  loading,
  size,
  children,
}: Pick<ButtonOwnProps, 'icon' | 'iconPosition' | 'children' | 'size'> & { loading?: boolean }) {
  const iconNode = loading ? (
    <Spinner announce={false} size="sm" />
  ) : icon ? (
    <span
      aria-hidden="true"
      className={cx('inline-flex shrink-0', size === 'sm' ? '[&_svg]:size-4' : '[&_svg]:size-5')}
    >
      {icon}
    </span>
  ) : null
  return (
    <>
      {iconPosition === 'start' && iconNode}
      {children}
      {iconPosition === 'end' && iconNode}
    </>
  )
}

/**
 * The one button of the product. Renders a <button>, an internal React Router link (`to`)
 * or an external link opening in a new tab (`href`).
 */
export function Button(props: ButtonProps) {
  if ('to' in props && props.to !== undefined) {
    const {
      variant,
      size,
      fullWidth,
      icon,
      iconPosition,
      children,
      className,
      loading: _l,
      href: _h,
      ...rest
    } = props as ButtonAsLinkProps
    return (
      <RouterLink {...rest} className={buttonClassName({ variant, size, fullWidth, className })}>
        <Content icon={icon} iconPosition={iconPosition} size={size}>
          {children}
        </Content>
      </RouterLink>
    )
  }
  if ('href' in props && props.href !== undefined) {
    const {
      variant,
      size,
      fullWidth,
      icon,
      iconPosition,
      children,
      className,
      loading: _l,
      to: _t,
      ...rest
    } = props as ButtonAsExternalLinkProps
    return (
      <a
        target="_blank"
        {...rest}
        rel="noopener noreferrer"
        className={buttonClassName({ variant, size, fullWidth, className })}
      >
        <Content icon={icon} iconPosition={iconPosition} size={size}>
          {children} <span className="sr-only">(opens in a new tab)</span>
        </Content>
      </a>
    )
  }
  const {
    variant,
    size,
    fullWidth,
    icon,
    iconPosition,
    children,
    className,
    loading = false,
    disabled,
    type = 'button',
    to: _t,
    href: _h,
    ...rest
  } = props as ButtonAsButtonProps
  return (
    <button
      {...rest}
      type={type}
      disabled={disabled || loading}
      aria-busy={loading || undefined}
      className={buttonClassName({ variant, size, fullWidth, className })}
    >
      <Content icon={icon} iconPosition={iconPosition} loading={loading} size={size}>
        {children}
      </Content>
    </button>
  )
}
