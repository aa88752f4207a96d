export { LoadFailed, type LoadFailedProps } from './LoadFailed'
export {
  OFFLINE_TITLE,
  WaitingForConnection,
  type WaitingForConnectionProps,
} from './WaitingForConnection'
