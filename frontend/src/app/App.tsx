import { useEffect, useState } from 'react'
import { RouterProvider } from 'react-router'
import { setForcedSignOutHandler } from '@/api/client'
import { ToastProvider } from '@/design-system'
import { createRouter } from './router'

export function App() {
  const [router] = useState(createRouter)
  // Any 401 clears the session, user and analytics identity, then goes to sign-in (spec §4):
  // forceSignOut has cleared the session and the identity; the cache goes with the session.
  useEffect(() => {
    setForcedSignOutHandler(() => {
      router.navigate('/sign-in', { replace: true })
    })
  }, [router])
  return (
    <ToastProvider regionClassName="bottom-16 sm:bottom-auto">
      <RouterProvider router={router} />
    </ToastProvider>
  )
}
