/** Maximum upload size (spec §9): 26 214 400 bytes = 25 MB. */
export const MAX_UPLOAD_BYTES = 26_214_400

const UNITS = ['Bytes', 'KB', 'MB', 'GB', 'TB'] as const

/** 1024-based size with at most 1 decimal: 0 → '0 Bytes', 1536 → '1.5 KB', 26214400 → '25 MB'. */
export function formatFileSize(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return '0 Bytes'
  const i = Math.min(Math.floor(Math.log(bytes) / Math.log(1024)), UNITS.length - 1)
  const value = Number.parseFloat((bytes / 1024 ** i).toFixed(1))
  return `${value} ${UNITS[i]}`
}

/** Spec §5: 'File size exceeds {limit}, please upload a smaller file.' */
export function fileTooLargeMessage(maxBytes: number = MAX_UPLOAD_BYTES): string {
  return `File size exceeds ${formatFileSize(maxBytes)}, please upload a smaller file.`
}

/** Spec §4: a file with the same name, type and size is a duplicate. */
export function isSameFile(
  a: Pick<File, 'name' | 'type' | 'size'> | null | undefined,
  b: Pick<File, 'name' | 'type' | 'size'>,
) {
  return Boolean(a) && a?.name === b.name && a?.type === b.type && a?.size === b.size
}
