import { QueryClientProvider, useQuery } from '@tanstack/react-query'
import { type ReactNode, useEffect } from 'react'
import { Outlet } from 'react-router'
import type { CurrentUser } from '@/api/client'
import { registerServiceWorkerLater } from '@/features/notifications'
import type { AuthedContext } from '@/lib/currentUser'
import { currentUserQuery } from '@/lib/currentUserQuery'
import { afterFirstScreen } from '@/lib/firstScreen'
import { queryClient } from '@/lib/queryClient'
import { FullPageSpinner } from '../FullPageSpinner'
import { UserLoadFailed } from '../guards'

/**
 * The signed-in family (inside RequireAuth): the server-state cache and the user, whom every
 * screen below receives through the outlet context and who stays current as the cache updates.
 */
export function SignedInLayout() {
  // The service worker (app shell cache, offline page, push) registers after the first screen
  // and the page's load, from its own chunk: none of it is in the first load.
  useEffect(
    () =>
      afterFirstScreen(() => {
        registerServiceWorkerLater()
        return undefined
      }),
    [],
  )
  return (
    <QueryClientProvider client={queryClient}>
      <LoadUser>{(user) => <Outlet context={{ user } satisfies AuthedContext} />}</LoadUser>
    </QueryClientProvider>
  )
}

function LoadUser({ children }: { children: (user: CurrentUser) => ReactNode }) {
  const { data: user, isError, refetch } = useQuery(currentUserQuery)
  if (isError && !user) return <UserLoadFailed onRetry={() => void refetch()} />
  if (!user) return <FullPageSpinner />
  return children(user)
}
