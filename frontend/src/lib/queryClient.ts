/**
 * The server-state cache of the screens that use it (the signed-in family, and the sign-in
 * family's screens past the sign-in form): loaded with them, never on the sign-in page itself.
 */
import { QueryClient } from '@tanstack/react-query'
import { session } from '@/lib/session'

export const queryClient = new QueryClient({
  defaultOptions: { queries: { refetchOnWindowFocus: true, retry: 1 } },
})

// Signed out, by a button, a 401 or another tab (spec §4): nothing cached outlives the session.
session.subscribe(() => {
  if (!session.get().token) queryClient.clear()
})
