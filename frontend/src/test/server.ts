/** The MSW server for component tests: no default handlers; each test declares its own. */
import { setupServer } from 'msw/node'
import { config } from '@/lib/config'

export const server = setupServer()

/** The absolute address of an API path, as the API client calls it. */
export function apiUrl(path: string): string {
  return `${config.apiBaseUrl}${path}`
}
