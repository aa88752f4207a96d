/**
 * A promise the test opens by hand. A mocked endpoint awaits `opened` before it answers, so the
 * test can look at the waiting state (a spinner, a disabled button) first and then call `open()`.
 */
export interface Gate {
  opened: Promise<void>
  open: () => void
}

export function createGate(): Gate {
  let open: () => void = () => {}
  const opened = new Promise<void>((resolve) => {
    open = resolve
  })
  return { opened, open }
}
