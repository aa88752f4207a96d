import { Skeleton, SkeletonGroup } from '@/design-system'

/** Placeholder while the saved answers load. */
export function StepLoading() {
  return (
    <SkeletonGroup label="Loading your answers" className="flex flex-col gap-4">
      <Skeleton className="h-8 w-2/3" />
      <Skeleton shape="text" lines={2} />
      <Skeleton className="h-40 w-full" />
    </SkeletonGroup>
  )
}
