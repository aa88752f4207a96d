import { useQuery } from '@tanstack/react-query'
import { ArrowLeft, Download, FileWarning } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useNavigate, useParams, useSearchParams } from 'react-router'
import { Button, buttonClassName, Heading, NotFound, Paragraph, Spinner } from '@/design-system'
import { fetchAttachmentUrl } from '../attachments'

/**
 * Downloads are sent with `Content-Disposition: attachment`, so the browser saves the file and
 * stays on this page: after this long without leaving, the spinner gives way to a way back.
 */
export const DOWNLOAD_STARTED_AFTER_MS = 1500

/** The file key from the path, decoded; null when empty. */
function decodeKey(raw: string | undefined): string | null {
  let key = raw ?? ''
  try {
    key = decodeURIComponent(key)
  } catch {
    // Already decoded (the router decodes path parameters) and holds a literal '%'.
  }
  return key.trim() || null
}

/**
 * Attachment (spec §2): resolves the file key to a download address and goes there. With
 * `?view=inline` (a thread's PDF, opened in a new tab) the address is one the browser shows in
 * its own viewer, and it replaces this page in the tab's history.
 */
export default function Attachment() {
  const { fileKey } = useParams()
  const [search] = useSearchParams()
  const key = decodeKey(fileKey)
  if (key === null) return <NotFound />
  return <OpenAttachment fileKey={key} inline={search.get('view') === 'inline'} />
}

function OpenAttachment({ fileKey, inline }: { fileKey: string; inline: boolean }) {
  const navigate = useNavigate()
  const opened = useRef<string | null>(null)
  const [stayed, setStayed] = useState(false)
  const {
    data: url,
    isError,
    error,
  } = useQuery({
    queryKey: ['attachments', 'expiringUrl', fileKey, inline],
    queryFn: () => fetchAttachmentUrl(fileKey, inline),
    retry: false,
    staleTime: 0,
    gcTime: 0,
    refetchOnWindowFocus: false,
  })

  useEffect(() => {
    if (!url || opened.current === url) return
    opened.current = url
    if (inline) window.location.replace(url)
    else window.location.assign(url)
    const timer = window.setTimeout(() => setStayed(true), DOWNLOAD_STARTED_AFTER_MS)
    return () => window.clearTimeout(timer)
  }, [url, inline])

  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0
    if (idx > 0) navigate(-1)
    else navigate('/requests')
  }

  return (
    <main className="flex min-h-dvh flex-col items-center justify-center bg-canvas px-6 py-16 text-center">
      {isError ? (
        <div className="flex max-w-md flex-col items-center gap-4">
          <span className="inline-flex size-14 items-center justify-center rounded-full bg-danger-50 text-danger-600">
            <FileWarning aria-hidden="true" className="size-7" />
          </span>
          <Heading level={1} size="lg">
            We couldn’t open this attachment
          </Heading>
          <Paragraph tone="muted">{error.message} Please go back and try again.</Paragraph>
          <Button variant="secondary" icon={<ArrowLeft />} onClick={goBack}>
            Go back
          </Button>
        </div>
      ) : stayed && url ? (
        <div className="flex max-w-md flex-col items-center gap-4">
          <span className="inline-flex size-14 items-center justify-center rounded-full bg-primary-50 text-primary-700">
            <Download aria-hidden="true" className="size-7" />
          </span>
          <Heading level={1} size="lg">
            Your download has started
          </Heading>
          <Paragraph tone="muted">
            Look for the file in your downloads. If nothing happened, download it again.
          </Paragraph>
          <div className="flex flex-col gap-3 sm:flex-row">
            <Button variant="secondary" icon={<ArrowLeft />} onClick={goBack}>
              Go back
            </Button>
            <a href={url} className={buttonClassName({ variant: 'primary' })}>
              <Download aria-hidden="true" className="size-5" />
              Download again
            </a>
          </div>
        </div>
      ) : (
        <div className="flex flex-col items-center gap-4">
          <Spinner size="lg" className="text-primary-600" label="Opening attachment…" />
          <Paragraph size="lg" weight="semibold" aria-hidden="true">
            Opening attachment…
          </Paragraph>
        </div>
      )}
    </main>
  )
}
