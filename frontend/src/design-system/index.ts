/**
 * The design system: the spec's §2 pieces plus a few shared helpers.
 * Import from '@/design-system' (or a relative path) in screens.
 */
export * from './assistant'
export * from './button'
export * from './category-icon'
export * from './chip'
export * from './drawer'
export * from './field'
export * from './file-upload'
export * from './heading'
export * from './link'
export * from './logo'
export * from './phone-input'
export * from './progress-bar'
export * from './skeleton'
export * from './spinner'
export * from './tabs'
export * from './text'
export * from './text-input'
export * from './toast'
export * from './utils'
