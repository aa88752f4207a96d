import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { Download } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { useLocation, useNavigate } from 'react-router'
import { Button, FormError, Paragraph, RetryAlert, Spinner } from '@/design-system'
import { formatWhen } from '@/lib/format'
import {
  dataExportDownload,
  dataExportQuery,
  dataExportStart,
  isBuilding,
  privacyKeys,
} from './api'

export const BUILD_FAILED = 'We couldn’t prepare your data. Please ask for it again.'

/** The page of the emailed link: /account/data#<token>. */
const DATA_EXPORT_LINK_PATH = '/account/data'

/**
 * The emailed link's token. It is in the address's fragment, which the browser never sends
 * (no server log, no Referer); read once, then taken out of the address (and so the history).
 */
function useLinkToken(): string | undefined {
  const { pathname, hash } = useLocation()
  const navigate = useNavigate()
  const [token] = useState(() =>
    pathname === DATA_EXPORT_LINK_PATH && hash.length > 1 ? hash.slice(1) : undefined,
  )
  useEffect(() => {
    if (pathname === DATA_EXPORT_LINK_PATH && hash) navigate(pathname, { replace: true })
  }, [pathname, hash, navigate])
  return token
}

/** 'Your data' on the Account page: ask for a copy of everything (a zip, built in the
 * background and linked by email); opened from that email's link, download it once. */
export function DataExportSection() {
  const token = useLinkToken()
  return (
    <section
      aria-labelledby="your-data-heading"
      className="flex flex-col gap-4 rounded-2xl border border-line bg-surface p-5 shadow-xs sm:p-6"
    >
      <h2 id="your-data-heading" className="text-lg font-semibold text-ink">
        Your data
      </h2>
      {token ? <DownloadFromLink token={token} /> : null}
      <AskForData />
    </section>
  )
}

function DownloadFromLink({ token }: { token: string }) {
  const queryClient = useQueryClient()
  const download = useMutation({
    mutationFn: () => dataExportDownload(token),
    onSettled: () => queryClient.invalidateQueries({ queryKey: privacyKeys.dataExport }),
  })
  // Opened from the emailed link, the page starts at this button, screens below its top on
  // a phone; once it worked, the focus moves to what took its place.
  const button = useRef<HTMLButtonElement>(null)
  useEffect(() => button.current?.focus(), [])
  const downloaded = useRef<HTMLParagraphElement>(null)
  useEffect(() => {
    if (download.isSuccess) downloaded.current?.focus()
  }, [download.isSuccess])
  return (
    <div className="flex flex-col gap-3 rounded-xl border border-primary-200 bg-primary-50 p-4">
      <Paragraph>Your copy is ready. The link works once: keep the file somewhere safe.</Paragraph>
      <FormError message={download.error?.message} />
      {download.isSuccess ? (
        <Paragraph ref={downloaded} tabIndex={-1} tone="muted" className="outline-none">
          Downloaded: my-data.zip.
        </Paragraph>
      ) : (
        <Button
          ref={button}
          icon={<Download />}
          loading={download.isPending}
          onClick={() => download.mutate()}
          className="self-start"
        >
          Download my data (zip)
        </Button>
      )}
    </div>
  )
}

function AskForData() {
  const queryClient = useQueryClient()
  const state = useQuery(dataExportQuery())
  // The button goes while the data is prepared: the focus moves to the message saying so.
  const focusPreparing = useRef(false)
  const preparing = useRef<HTMLParagraphElement>(null)
  const start = useMutation({
    mutationFn: dataExportStart,
    onSuccess: async (data) => {
      // A read still under way was answered before the ask: landing after it, it would
      // bring the button back.
      await queryClient.cancelQueries({ queryKey: privacyKeys.dataExport })
      focusPreparing.current = true
      queryClient.setQueryData(privacyKeys.dataExport, data)
    },
  })
  const status = state.data?.status
  const building = isBuilding(status)
  // The emailed link while it works: an expired one is not worth mentioning.
  const expiresAt = status === 'ready' ? state.data?.expires_at : null
  const linkUntil = expiresAt && new Date(expiresAt).getTime() > Date.now() ? expiresAt : null
  useEffect(() => {
    if (!building || !focusPreparing.current) return
    focusPreparing.current = false
    preparing.current?.focus()
  }, [building])
  return (
    <div className="flex flex-col gap-3">
      <Paragraph tone="muted">
        Get a copy of your profile, onboarding answers, requests with their answers and messages,
        ratings and attachments, as a zip file. We'll email you a link to download it.
      </Paragraph>
      {state.isError ? (
        <RetryAlert
          message="We couldn’t check whether a copy of your data is being prepared."
          compact
          onRetry={() => void state.refetch()}
        />
      ) : null}
      <FormError message={start.error?.message} />
      {building ? (
        <p
          ref={preparing}
          tabIndex={-1}
          role="status"
          className="flex items-center gap-2 text-sm text-ink outline-none"
        >
          <Spinner label="Preparing" size="sm" announce={false} />
          We're preparing your data. We'll email you a link when it's ready.
        </p>
      ) : linkUntil ? (
        <p role="status" className="text-sm text-ink">
          We emailed you a link. It works once, until {formatWhen(linkUntil)}.
        </p>
      ) : status === 'failed' ? (
        <p role="status" className="text-sm text-danger-700">
          {BUILD_FAILED}
        </p>
      ) : null}
      {building ? null : (
        <Button
          variant="secondary"
          loading={start.isPending}
          onClick={() => start.mutate()}
          className="self-start"
        >
          Download my data
        </Button>
      )}
    </div>
  )
}
