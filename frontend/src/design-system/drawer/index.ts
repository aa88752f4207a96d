export type { DrawerPlacement, DrawerProps, DrawerVariant } from './Drawer'
export { Drawer } from './Drawer'
export { type DrawerHistory, useDrawerHistory } from './useDrawerHistory'
