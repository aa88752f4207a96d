import { afterEach, describe, expect, it } from 'vitest'
import { removeShellOnceTheAppShows } from './firstPaintShell'

const settle = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('Issue 8 first paint: the static shell leaves once the app shows a screen', () => {
  afterEach(() => {
    document.body.innerHTML = ''
  })

  it('stays while the app shows no <main>, then goes with the first one', async () => {
    document.body.innerHTML =
      '<div id="root"></div><div class="app-shell"><p>Benefits &amp; Offers</p></div>'
    const root = document.getElementById('root') as HTMLElement
    removeShellOnceTheAppShows(root)

    root.innerHTML = '<div role="status">Loading</div>'
    await settle()
    expect(document.querySelector('.app-shell')).not.toBeNull()

    root.innerHTML = '<div><main><h1>Benefits &amp; Offers</h1></main></div>'
    await settle()
    expect(document.querySelector('.app-shell')).toBeNull()
    expect(document.body.textContent).toBe('Benefits & Offers')
  })
})
