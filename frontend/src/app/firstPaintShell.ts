/**
 * The document's static first paint (index.html's `.app-shell`) leaves the page once the app
 * shows a screen (a <main> in `appRoot`). The stylesheet hides it in that same frame already;
 * removing it keeps its words out of the page for find-in-page and for scripts.
 */
export function removeShellOnceTheAppShows(appRoot: HTMLElement): void {
  const shell = document.querySelector('.app-shell')
  if (!shell) return
  const observer = new MutationObserver(() => {
    if (!appRoot.querySelector('main')) return
    observer.disconnect()
    shell.remove()
  })
  observer.observe(appRoot, { childList: true, subtree: true })
}
