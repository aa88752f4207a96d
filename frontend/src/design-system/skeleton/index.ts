export type { SkeletonGroupProps, SkeletonProps } from './Skeleton'
export { Skeleton, SkeletonGroup } from './Skeleton'
