/**
 * The app's request drawer, for screen tests that open it the way the signed-in layout does
 * (a feature's screens reach the drawer only through `useRequestDrawer()`).
 */
export { RequestDrawerProvider } from '@/features/request-drawer/RequestDrawerProvider'
