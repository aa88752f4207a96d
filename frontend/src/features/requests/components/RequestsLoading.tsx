/**
 * The Requests screen's header and its list's skeleton: the screen shows them while its lists
 * load, and the app's shell while the screen's code is on its way, so the one gives way to the
 * other without a jump.
 */
import { PageHeader, Skeleton, SkeletonGroup } from '@/design-system'

export function RequestsHeader() {
  return <PageHeader title="Requests">Everything you’ve asked your concierge to handle.</PageHeader>
}

export function RequestListSkeleton() {
  return (
    <SkeletonGroup label="Loading requests" className="flex flex-col gap-6">
      <div className="flex gap-3 border-b border-line pb-3">
        <Skeleton className="h-6 w-24" />
        <Skeleton className="h-6 w-28" />
      </div>
      <Skeleton shape="text" className="w-48" />
      {[0, 1, 2].map((i) => (
        <div
          key={i}
          className="flex items-center gap-4 rounded-2xl border border-line bg-surface p-4"
        >
          <Skeleton shape="circle" className="size-12 shrink-0" />
          <Skeleton shape="text" lines={2} className="flex-1" />
        </div>
      ))}
    </SkeletonGroup>
  )
}

/** The whole screen while its code is on its way. */
export function RequestsLoading() {
  return (
    <div className="flex flex-col gap-6 sm:gap-8">
      <RequestsHeader />
      <RequestListSkeleton />
    </div>
  )
}
