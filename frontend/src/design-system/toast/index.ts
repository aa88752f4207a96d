export type {
  ToastAction,
  ToastApi,
  ToastDismissal,
  ToastDismissReason,
  ToastItem,
  ToastOptions,
  ToastProviderProps,
  ToastSeverity,
} from './ToastProvider'
export { TOAST_AUTO_DISMISS_MS, ToastProvider, useToast } from './ToastProvider'
