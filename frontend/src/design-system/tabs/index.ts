export { nextTabIndexForSwipe, TAB_SWIPE_THRESHOLD_PX, tabIdFromLabel } from './swipe'
export type { TabPanelProps, TabsProps } from './Tabs'
export { TabPanel, Tabs } from './Tabs'
