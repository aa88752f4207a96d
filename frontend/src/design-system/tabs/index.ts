export {
  nextTabIndexForSwipe,
  TAB_SCROLL_STEP,
  TAB_SWIPE_THRESHOLD_PX,
  tabIdFromLabel,
  tabScrollDistance,
} from './swipe'
export type { TabPanelProps, TabsProps } from './Tabs'
export { TabPanel, Tabs } from './Tabs'
