import './styles/fonts.css'
import './index.css'
import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { removeShellOnceTheAppShows } from './app/firstPaintShell'
import { CONFIG_ERROR_MESSAGE, configIsValid } from './lib/config'
import { prefetchCurrentUser } from './lib/currentUser'
import { initErrorReporting } from './lib/errorReporting'

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')

if (configIsValid) {
  removeShellOnceTheAppShows(root)
  void initErrorReporting()
  // Signed-in screens start from the user: ask for them while the screen's code loads.
  prefetchCurrentUser()
  // A transition renders the first screen in slices that yield to the browser, instead of one
  // long task that blocks input on a slow phone.
  startTransition(() => {
    createRoot(root).render(
      <StrictMode>
        <App />
      </StrictMode>,
    )
  })
} else {
  document.querySelector('.app-shell')?.remove()
  root.textContent = CONFIG_ERROR_MESSAGE
}
