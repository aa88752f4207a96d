/**
 * The optional attachment of a message or reply (spec §5 'Message attachments'): one image or
 * PDF, uploaded for the request through a `useSingleFileUpload` before the message is sent.
 * Also the error box the message composers show when a send fails.
 */
import { CircleAlert } from 'lucide-react'
import type { ReactNode, Ref } from 'react'
import { ATTACHMENT_ACCEPT, isAllowedAttachment } from '@/api/upload-policy'
import { FileUpload, type FileUploadHandle } from '@/design-system'
import { invalidAttachmentTypeMessage, messageUploadErrorMessage } from '../wording'
import type { SingleFileUpload } from './useSingleFileUpload'

export interface MessageAttachmentFieldProps {
  /** The composer's `useSingleFileUpload()`. */
  upload: SingleFileUpload
  /** The request the file is attached to. */
  requestId: number
  label?: string
  description?: string
  isDisabled?: boolean
  /** A composer's row: the attach button with `trailing` (Send) at the end. */
  compact?: boolean
  trailing?: ReactNode
  /** A compact row folded to one line: the attach button as its icon only. */
  iconOnly?: boolean
  ref?: Ref<FileUploadHandle>
}

export function MessageAttachmentField({
  upload,
  requestId,
  label = 'Attach a file',
  description = 'One image or PDF, up to 25 MB',
  isDisabled,
  compact = false,
  trailing,
  iconOnly,
  ref,
}: MessageAttachmentFieldProps) {
  return (
    <FileUpload
      ref={ref}
      variant={compact ? 'compact' : 'dropzone'}
      trailing={trailing}
      iconOnly={iconOnly}
      label={label}
      description={description}
      accept={ATTACHMENT_ACCEPT}
      validate={(file) =>
        isAllowedAttachment(file) ? null : invalidAttachmentTypeMessage(file.name)
      }
      onFileSelected={(file) => {
        void upload.start(file, { requestId })
      }}
      onFileRemoved={() => upload.reset()}
      status={upload.status === 'idle' ? 'pending' : upload.status}
      progress={upload.progress}
      error={upload.error ? messageUploadErrorMessage(upload.error) : null}
      isDisabled={isDisabled}
    />
  )
}

/** A failed send's message, referenced by the send button's aria-describedby through `id`. */
export function ErrorBox({ id, message }: { id?: string; message: string }) {
  return (
    <div
      id={id}
      role="alert"
      className="flex items-start gap-2 rounded-xl border border-danger-200 bg-danger-50 p-3 text-sm font-medium text-danger-800"
    >
      <CircleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <span>{message}</span>
    </div>
  )
}
