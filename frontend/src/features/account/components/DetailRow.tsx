import { type ReactNode, type RefObject, useEffect, useId, useRef } from 'react'
import { Button } from '@/design-system'

/**
 * One detail of the account: its label and current value, with a button that opens its form in
 * place (`children`, shown while `editing`). The form's first field takes the focus; closing it
 * gives the focus back to the button.
 */
export function DetailRow({
  label,
  value,
  action,
  editing,
  onEdit,
  notice,
  actionRef,
  children,
}: {
  label: string
  value: ReactNode
  /** Shown under the row, across its width (e.g. a change waiting for confirmation). */
  notice?: ReactNode
  action: string
  editing: boolean
  onEdit: () => void
  /** The action's button, for a notice that goes to give the focus back to. */
  actionRef?: RefObject<HTMLButtonElement | null>
  children: ReactNode
}) {
  const button = useRef<HTMLButtonElement>(null)
  const form = useRef<HTMLDivElement>(null)
  const wasEditing = useRef(editing)
  const labelId = useId()
  useEffect(() => {
    if (editing && !wasEditing.current) {
      form.current?.querySelector<HTMLElement>('input, textarea, button')?.focus()
    } else if (!editing && wasEditing.current) {
      button.current?.focus()
    }
    wasEditing.current = editing
  }, [editing])
  return (
    <div className="flex flex-col gap-4 py-4 first:pt-0 last:pb-0">
      <div className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <p id={labelId} className="text-sm font-semibold text-ink">
            {label}
          </p>
          <div className="mt-0.5 break-words text-ink-muted">{value}</div>
        </div>
        {editing ? null : (
          <Button
            ref={(node) => {
              button.current = node
              if (actionRef) actionRef.current = node
            }}
            variant="tertiary"
            size="sm"
            aria-describedby={labelId}
            onClick={onEdit}
          >
            {action}
          </Button>
        )}
      </div>
      {notice}
      {editing ? <div ref={form}>{children}</div> : null}
    </div>
  )
}
