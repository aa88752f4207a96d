export type {
  ToastAction,
  ToastApi,
  ToastDismissReason,
  ToastItem,
  ToastOptions,
  ToastProviderProps,
  ToastSeverity,
} from './ToastProvider'
export { TOAST_AUTO_DISMISS_MS, ToastProvider, useToast } from './ToastProvider'
