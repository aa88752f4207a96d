import '@fontsource-variable/inter'
import './index.css'
import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { App } from './app/App'
import { CONFIG_ERROR_MESSAGE, configIsValid } from './lib/config'
import { initErrorReporting } from './lib/errorReporting'

const root = document.getElementById('root')
if (!root) throw new Error('The page has no #root element')

if (configIsValid) {
  void initErrorReporting()
  createRoot(root).render(
    <StrictMode>
      <App />
    </StrictMode>,
  )
} else {
  document.querySelector('.app-shell')?.remove()
  root.textContent = CONFIG_ERROR_MESSAGE
}
