/**
 * The Attachment route's call (spec §7 Uploads): GET /api/v1/uploads/expiring_url?key=...
 * returns `expiring_url`, a short-lived download address (with `inline`, one the browser shows
 * instead of saving: an image or a PDF).
 */
export {
  EXPIRING_URL_FALLBACK,
  fetchAttachmentUrl as fetchExpiringUrl,
} from '@/lib/requests/attachments'
