export type { ExternalLinkProps, InternalLinkProps, LinkProps, LinkTone } from './Link'
export { Link, linkClassName } from './Link'
