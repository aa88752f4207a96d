import { Heading as AriaHeading, Dialog, Modal, ModalOverlay } from 'react-aria-components'
import { Button } from '@/design-system'

export interface ConfirmDialogProps {
  isOpen: boolean
  /** The question, used as the dialog's accessible name. */
  message: string
  confirmLabel: string
  cancelLabel: string
  onConfirm: () => void
  /** Also called on Escape and on a click outside. */
  onCancel: () => void
}

/**
 * A small modal confirmation (alertdialog) over the drawer. Focus starts on the safe choice,
 * Escape or a click outside cancels.
 */
export function ConfirmDialog({
  isOpen,
  message,
  confirmLabel,
  cancelLabel,
  onConfirm,
  onCancel,
}: ConfirmDialogProps) {
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
          <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onCancel} autoFocus>
              {cancelLabel}
            </Button>
            <Button variant="primary" onClick={onConfirm}>
              {confirmLabel}
            </Button>
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
