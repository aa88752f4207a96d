import { Copy } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { Button, type ButtonVariant } from '../button'
import { controlClassName } from '../field'
import { FormError } from '../form-error'
import { Paragraph } from '../text'

export type CopyFieldProps = {
  id: string
  label: string
  value: string
  /** Shown under the field and read with it (e.g. "it is shown only this once"). */
  note?: string
  /** Focus and select the value when shown (a secret just made). */
  autoFocus?: boolean
  /** The button's text; its accessible name is "Copy <label>" when this is the plain "Copy". */
  buttonText?: string
  buttonVariant?: ButtonVariant
  onCopied: () => void
}

/**
 * A read-only value with a Copy button: a link or a secret shown once. When the browser
 * blocks the clipboard, the value is selected and the person is told to copy it themselves.
 */
export function CopyField({
  id,
  label,
  value,
  note,
  autoFocus = false,
  buttonText = 'Copy',
  buttonVariant = 'secondary',
  onCopied,
}: CopyFieldProps) {
  const input = useRef<HTMLInputElement>(null)
  const [copyError, setCopyError] = useState<string>()
  useEffect(() => {
    if (!autoFocus) return
    input.current?.focus()
    input.current?.select()
  }, [autoFocus])
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value)
      setCopyError(undefined)
      onCopied()
    } catch {
      input.current?.select()
      setCopyError('Copying is blocked here: the text is selected, copy it with your keyboard.')
    }
  }
  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={id} className="text-sm font-semibold text-ink">
        {label}
      </label>
      <div className="flex flex-col gap-2 sm:flex-row">
        <input
          ref={input}
          id={id}
          readOnly
          value={value}
          aria-describedby={note ? `${id}-note` : undefined}
          className={controlClassName(false, 'font-mono text-xs')}
        />
        <Button
          variant={buttonVariant}
          icon={<Copy />}
          onClick={copy}
          aria-label={buttonText === 'Copy' ? `Copy ${label}` : undefined}
          className="shrink-0"
        >
          {buttonText}
        </Button>
      </div>
      {note ? (
        <Paragraph size="sm" tone="muted" id={`${id}-note`}>
          {note}
        </Paragraph>
      ) : null}
      <FormError message={copyError} />
    </div>
  )
}
