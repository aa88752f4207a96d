export type { ProgressBarProps } from './ProgressBar'
export { ProgressBar } from './ProgressBar'
