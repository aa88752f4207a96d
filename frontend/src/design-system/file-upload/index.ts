export type { FileUploadHandle, FileUploadProps, FileUploadStatus } from './FileUpload'
export { FileUpload } from './FileUpload'
export { fileTooLargeMessage, formatFileSize, isSameFile, MAX_UPLOAD_BYTES } from './formatFileSize'
