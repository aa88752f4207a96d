/**
 * The document's first script (index.html, signed-in pages): starts the page's first API
 * requests while the app's code is still on its way (app/firstScreenRequests.ts).
 */
import { startFirstScreenRequests } from './app/firstScreenRequests'
import { config, configIsValid } from './lib/config'

if (configIsValid) startFirstScreenRequests(config.apiBaseUrl)
