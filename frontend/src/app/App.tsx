import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { useState } from 'react'
import { RouterProvider } from 'react-router'
import { setForcedSignOutHandler } from '@/api/client'
import { ToastProvider } from '@/design-system'
import { currentUserQuery } from '@/lib/currentUser'
import { session } from '@/lib/session'
import { createRouter } from './router'

export function App() {
  const [queryClient] = useState(() => {
    const client = new QueryClient({
      defaultOptions: { queries: { refetchOnWindowFocus: true, retry: 1 } },
    })
    // Signed-in screens start from the user: ask for it while the screen's code loads.
    if (session.isAuthenticated()) void client.prefetchQuery(currentUserQuery)
    return client
  })
  const [router] = useState(() => {
    const created = createRouter()
    // Any 401 clears the session, user and analytics identity, then goes to sign-in (spec §4):
    // forceSignOut has cleared the session and the identity; the user goes with the cache.
    setForcedSignOutHandler(() => {
      queryClient.clear()
      created.navigate('/sign-in', { replace: true })
    })
    return created
  })
  return (
    <QueryClientProvider client={queryClient}>
      <ToastProvider regionClassName="bottom-16 sm:bottom-auto">
        <RouterProvider router={router} />
      </ToastProvider>
    </QueryClientProvider>
  )
}
