import { Copy, Download } from 'lucide-react'
import { useEffect, useRef } from 'react'
import { Button, Paragraph, useToast } from '@/design-system'
import { config } from '@/lib/config'
import { recoveryCodesFile } from '../api'

/** The 10 recovery codes, shown once: download or copy them, then carry on. */
export function RecoveryCodes({
  codes,
  onDone,
  doneLabel = 'I’ve saved my codes',
}: {
  codes: string[]
  onDone: () => void
  doneLabel?: string
}) {
  const { toast } = useToast()
  const headingRef = useRef<HTMLHeadingElement>(null)
  useEffect(() => headingRef.current?.focus(), [])

  const download = () => {
    const url = URL.createObjectURL(recoveryCodesFile(codes, config.productName))
    const link = document.createElement('a')
    link.href = url
    link.download = `${config.productName.toLowerCase().replace(/\W+/g, '-')}-recovery-codes.txt`
    link.click()
    setTimeout(() => URL.revokeObjectURL(url), 1000)
  }
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(codes.join('\n'))
      toast({ message: 'Recovery codes copied.', severity: 'success', autoDismiss: true })
    } catch {
      toast({ message: 'Copying failed: please download them instead.', severity: 'error' })
    }
  }

  return (
    <div className="flex flex-col gap-4" data-testid="recovery-codes">
      <h3 ref={headingRef} tabIndex={-1} className="text-base font-semibold text-ink outline-none">
        Save your recovery codes
      </h3>
      <Paragraph tone="muted" size="sm">
        If you lose your phone or passkey, each of these codes signs you in once. This is the only
        time we show them: keep them somewhere safe, like a password manager.
      </Paragraph>
      <ul className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-xl border border-line bg-neutral-50 p-4 font-mono text-sm tracking-wider text-ink sm:grid-cols-2">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <div className="flex flex-wrap gap-3">
        <Button variant="secondary" size="sm" icon={<Download />} onClick={download}>
          Download
        </Button>
        <Button variant="secondary" size="sm" icon={<Copy />} onClick={copy}>
          Copy
        </Button>
      </div>
      <Button onClick={onDone} className="self-start">
        {doneLabel}
      </Button>
    </div>
  )
}
