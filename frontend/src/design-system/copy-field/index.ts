export type { CopyFieldProps } from './CopyField'
export { CopyField } from './CopyField'
