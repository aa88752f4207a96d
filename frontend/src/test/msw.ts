/**
 * MSW lifecycle for every test file: a request no test declared fails loudly. The server
 * starts as this setup file loads, before any test module is imported, because the API client
 * (openapi-fetch) keeps the `fetch` it finds when it is created.
 */
import { afterAll, afterEach } from 'vitest'
import { server } from './server'

server.listen({ onUnhandledRequest: 'error' })
afterEach(() => server.resetHandlers())
afterAll(() => server.close())
