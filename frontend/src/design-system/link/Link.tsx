import { ExternalLink as ExternalLinkIcon } from 'lucide-react'
import type { AnchorHTMLAttributes, ReactNode, Ref } from 'react'
import { Link as RouterLink, type LinkProps as RouterLinkProps } from 'react-router'
import { cx, focusRing } from '../utils'

export type LinkTone = 'primary' | 'inherit' | 'muted'

interface LinkOwnProps {
  children?: ReactNode
  className?: string
  /** Colour. Default 'primary'. */
  tone?: LinkTone
  /** Underline always (default) or only on hover. */
  underline?: 'always' | 'hover'
}

export interface InternalLinkProps
  extends LinkOwnProps,
    Omit<RouterLinkProps, 'className' | 'children'> {
  /** Internal route (React Router). */
  to: RouterLinkProps['to']
  href?: never
  ref?: Ref<HTMLAnchorElement>
}

export interface ExternalLinkProps
  extends LinkOwnProps,
    Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'className' | 'children' | 'href'> {
  /** External address. http(s) addresses open in a new tab with rel="noopener noreferrer". */
  href: string
  to?: never
  /**
   * Open in a new tab. Default: true, except for mailto: and tel: addresses,
   * which hand over to the mail or phone app.
   */
  newTab?: boolean
  /** Show the 'opens in a new tab' icon (a screen-reader text is always present). Default true. */
  showIcon?: boolean
  ref?: Ref<HTMLAnchorElement>
}

export type LinkProps = InternalLinkProps | ExternalLinkProps

const tones: Record<LinkTone, string> = {
  primary: 'text-primary-700 hover:text-primary-800',
  inherit: 'text-inherit',
  muted: 'text-ink-muted hover:text-ink',
}

export function linkClassName({
  tone = 'primary',
  underline = 'always',
  className,
}: LinkOwnProps = {}) {
  return cx(
    'rounded-xs font-medium underline-offset-4 decoration-1 transition-colors motion-reduce:transition-none',
    underline === 'always' ? 'underline hover:decoration-2' : 'no-underline hover:underline',
    tones[tone],
    focusRing,
    className,
  )
}

function opensInNewTabByDefault(href: string) {
  return !/^(mailto|tel|sms):/i.test(href) && !href.startsWith('#')
}

/** A text link to an internal route (`to`) or an external address (`href`). */
export function Link(props: LinkProps) {
  if ('to' in props && props.to !== undefined) {
    const { tone, underline, className, href: _h, ...rest } = props as InternalLinkProps
    return <RouterLink {...rest} className={linkClassName({ tone, underline, className })} />
  }
  const {
    tone,
    underline,
    className,
    children,
    href,
    newTab,
    showIcon = true,
    to: _t,
    ...rest
  } = props as ExternalLinkProps
  const inNewTab = newTab ?? opensInNewTabByDefault(href)
  return (
    <a
      {...rest}
      href={href}
      {...(inNewTab ? { target: '_blank', rel: 'noopener noreferrer' } : {})}
      className={linkClassName({ tone, underline, className })}
    >
      {children}
      {inNewTab ? (
        <>
          {showIcon ? (
            <ExternalLinkIcon
              aria-hidden="true"
              className="ms-1 inline size-[0.9em] align-[-0.1em]"
            />
          ) : null}{' '}
          <span className="sr-only">(opens in a new tab)</span>
        </>
      ) : null}
    </a>
  )
}
