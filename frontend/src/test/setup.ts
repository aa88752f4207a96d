import '@testing-library/jest-dom/vitest'
import { cleanup } from '@testing-library/react'
import { afterEach } from 'vitest'
import './msw'

afterEach(async () => {
  cleanup()
  window.localStorage.clear()
  window.sessionStorage.clear()
  // Imported here, not above: the API client must be created after MSW patched `fetch`.
  const { queryClient } = await import('@/lib/queryClient')
  queryClient.clear()
})
