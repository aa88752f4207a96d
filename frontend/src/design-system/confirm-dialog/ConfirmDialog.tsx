import { type ReactNode, useEffect, useRef } from 'react'
import {
  Heading as AriaHeading,
  Text as AriaText,
  Dialog,
  Modal,
  ModalOverlay,
} from 'react-aria-components'
import { Button } from '../button'

export interface ConfirmDialogProps {
  isOpen: boolean
  /** The question, used as the dialog's accessible name. */
  message: string
  /** What the confirm choice does, under the question (the dialog's description). */
  description?: ReactNode
  confirmLabel: string
  cancelLabel: string
  onConfirm: () => void
  /** Also called on Escape and on a click outside. */
  onCancel: () => void
  /** The confirm choice destroys something (unsaved changes): it takes the danger style. */
  destructive?: boolean
}

/**
 * A small modal confirmation (alertdialog), e.g. over the request drawer. Focus starts on the safe choice,
 * Escape or a click outside cancels. The safe choice comes first at every size (stacked on
 * phones, side by side on wider screens).
 */
export function ConfirmDialog({
  isOpen,
  message,
  description,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
  destructive = false,
}: ConfirmDialogProps) {
  const safe = useRef<HTMLButtonElement>(null)
  // After the dialog has taken focus itself, hand it to the safe choice.
  useEffect(() => {
    if (!isOpen) return
    const frame = requestAnimationFrame(() => safe.current?.focus())
    return () => cancelAnimationFrame(frame)
  }, [isOpen])
  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) onCancel()
      }}
      isDismissable
      className="fixed inset-0 z-modal flex items-center justify-center bg-scrim p-4 motion-safe:data-entering:animate-fade-in motion-safe:data-exiting:animate-fade-out"
    >
      <Modal className="w-full max-w-sm rounded-2xl bg-surface p-6 shadow-xl outline-none">
        <Dialog role="alertdialog" className="flex flex-col gap-5 outline-none">
          <AriaHeading slot="title" className="text-lg font-semibold text-balance text-ink">
            {message}
          </AriaHeading>
          {description ? (
            <AriaText slot="description" className="-mt-2 text-sm text-ink-muted">
              {description}
            </AriaText>
          ) : null}
          <div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
            <Button
              ref={safe}
              variant={destructive ? 'primary' : 'secondary'}
              onClick={onCancel}
              autoFocus
            >
              {cancelLabel}
            </Button>
            <Button variant={destructive ? 'danger' : 'primary'} onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
