export { RetryAlert, type RetryAlertProps } from './RetryAlert'
