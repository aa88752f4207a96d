export {
  ErrorBox,
  MessageAttachmentField,
  type MessageAttachmentFieldProps,
} from './MessageAttachmentField'
export {
  putFile,
  requestPresignedUrl,
  UploadError,
  uploadErrorMessage,
} from './upload'
export {
  type SingleFileUpload,
  type SingleFileUploadState,
  type SingleFileUploadStatus,
  type StartUploadOptions,
  useSingleFileUpload,
} from './useSingleFileUpload'
