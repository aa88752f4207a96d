export type { CategoryIconName, CategoryIconProps } from './CategoryIcon'
export { CategoryIcon, categoryIconName } from './CategoryIcon'
