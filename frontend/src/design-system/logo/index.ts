export type { LogoProps, LogoSize, LogoVariant } from './Logo'
export { Logo, LogoMark } from './Logo'
