/**
 * The conversation inside a request: the request's and its thread's queries, the thread, the
 * composer's draft, the image viewer, attachments and uploads, and following new messages live.
 * The employee's request screens and the desk build on it through this entry only.
 */
export {
  createMessage,
  fetchOlderMessages,
  isNotFound,
  type NewMessage,
  newMessageOptions,
  parseRequestId,
  REQUEST_POLL_MS,
  RequestApiError,
  type RequestBucket,
  type RequestItem,
  type RequestListItem,
  type RequestMessage,
  requestKeys,
  requestListQuery,
  requestQuery,
  requestSummaryQuery,
  type SummaryLine,
  type ThreadPage,
  unreadCountQuery,
} from './api'
export { attachmentKind } from './attachments'
export { ExpectReplyBy, ExpectReplyByRequest } from './components/ExpectReplyBy'
export { ThreadImagesProvider } from './components/ImageViewer'
export {
  DraftAttachmentAndSend,
  draftHasContent,
  dropTargetClass,
  useMessageDraft,
} from './components/MessageDraft'
export { StatusBadge } from './components/StatusBadge'
export { NewMessagePill, ThreadAnnouncer } from './components/ThreadFollowParts'
export {
  AttachmentLink,
  AttachmentThumbnail,
  EmptyThread,
  LoadOlderMessages,
  MessageList,
  ThreadMessage,
} from './components/ThreadParts'
export { UnreadMark } from './components/UnreadMark'
export { useKeyboardOpen } from './hooks/useKeyboardOpen'
export { type OlderMessages, useOlderMessages } from './hooks/useOlderMessages'
export { useThreadFollow } from './hooks/useThreadFollow'
export { buildThread, lastReplyAt, type ThreadEntry, time } from './thread'
export { useSingleFileUpload } from './uploads'
export {
  COMPLETED_TAB_LABEL,
  inProgressHeading,
  inQueueHeading,
  lastMessageAgo,
  REQUEST_RECEIVED_TEXT,
  requestedAgo,
  TODO_TAB_LABEL,
  tabLabel,
  UNREAD_MARK_TEXT,
  unreadSuffix,
} from './wording'
