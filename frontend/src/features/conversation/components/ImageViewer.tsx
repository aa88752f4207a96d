/**
 * The thread's image viewer: a modal dialog over the thread showing one image at a time, with
 * its name and position ('2 of 3'), Previous/Next (also the ← and → keys, wrapping around),
 * a Download button, and Close (also Escape). Focus is trapped while it is open and returns to
 * the thumbnail that opened it. `ThreadImagesProvider` gives a thread's thumbnails the list of
 * its images, oldest first, so the arrows move through the whole conversation.
 */
import { useQuery } from '@tanstack/react-query'
import { ChevronLeft, ChevronRight, Download, ImageOff, X } from 'lucide-react'
import { createContext, type ReactNode, useContext, useEffect, useMemo, useState } from 'react'
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import { cx, focusRing, Spinner } from '@/design-system'
import type { MessageAttachment } from '../api'
import { attachmentKind, downloadAttachment, inlineAttachmentQuery } from '../attachments'
import type { ThreadEntry } from '../thread'

interface ThreadImages {
  /** Opens the viewer on the image with this key. */
  open: (key: string) => void
}

const ThreadImagesContext = createContext<ThreadImages | null>(null)

export function useThreadImages(): ThreadImages | null {
  return useContext(ThreadImagesContext)
}

/** The images of a thread's messages, oldest first. */
export function threadImages(entries: readonly ThreadEntry[]): MessageAttachment[] {
  return entries.flatMap((entry) =>
    entry.kind === 'message' ? entry.attachments.filter((a) => attachmentKind(a) === 'image') : [],
  )
}

export function ThreadImagesProvider({
  entries,
  leadingImages,
  children,
}: {
  entries: readonly ThreadEntry[]
  /** Images shown before the messages' (the request summary's file answers). */
  leadingImages?: readonly MessageAttachment[]
  children: ReactNode
}) {
  const images = useMemo(
    () => [...(leadingImages ?? []), ...threadImages(entries)],
    [leadingImages, entries],
  )
  const [openKey, setOpenKey] = useState<string | null>(null)
  const value = useMemo<ThreadImages>(() => ({ open: setOpenKey }), [])
  const index = openKey === null ? -1 : images.findIndex((image) => image.key === openKey)
  return (
    <ThreadImagesContext.Provider value={value}>
      {children}
      {index >= 0 ? (
        <ImageViewer
          images={images}
          index={index}
          onIndexChange={(next) => setOpenKey(images[next].key)}
          onClose={() => setOpenKey(null)}
        />
      ) : null}
    </ThreadImagesContext.Provider>
  )
}

const controlClass = cx(
  'inline-flex size-11 shrink-0 items-center justify-center rounded-full bg-white/10 text-white',
  'hover:bg-white/20 disabled:opacity-50 focus-visible:outline-white',
  focusRing,
)

export function ImageViewer({
  images,
  index,
  onIndexChange,
  onClose,
}: {
  images: readonly MessageAttachment[]
  index: number
  onIndexChange: (index: number) => void
  onClose: () => void
}) {
  const image = images[index]
  const count = images.length
  const [downloadError, setDownloadError] = useState<string | null>(null)
  const [downloading, setDownloading] = useState(false)
  const move = (step: number) => {
    setDownloadError(null)
    onIndexChange((index + step + count) % count)
  }

  // ← and → move between the thread's images wherever focus is inside the viewer.
  useEffect(() => {
    if (count < 2) return
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.altKey || event.ctrlKey || event.metaKey) return
      if (event.key === 'ArrowRight' || event.key === 'ArrowLeft') {
        event.preventDefault()
        setDownloadError(null)
        onIndexChange((index + (event.key === 'ArrowRight' ? 1 : -1) + count) % count)
      }
    }
    document.addEventListener('keydown', onKeyDown)
    return () => document.removeEventListener('keydown', onKeyDown)
  }, [count, index, onIndexChange])

  const download = async () => {
    if (downloading) return
    setDownloading(true)
    setDownloadError(null)
    try {
      await downloadAttachment(image.key)
    } catch (error) {
      setDownloadError(error instanceof Error ? error.message : String(error))
    } finally {
      setDownloading(false)
    }
  }

  return (
    <ModalOverlay
      isOpen
      isDismissable
      onOpenChange={(open) => {
        if (!open) onClose()
      }}
      className="fixed inset-0 z-modal bg-neutral-950"
      data-viewer-surface=""
    >
      <Modal className="fixed inset-0 flex outline-none">
        <Dialog
          aria-label={`Image viewer: ${image.filename}`}
          className="flex h-full w-full flex-col text-white outline-none"
        >
          <div className="flex items-center gap-3 px-4 py-3 sm:px-6">
            <div className="flex min-w-0 flex-1 flex-col">
              <Heading slot="title" className="truncate text-base font-semibold">
                {image.filename}
              </Heading>
              {count > 1 ? (
                <p aria-live="polite" className="text-sm text-white/80">
                  Image {index + 1} of {count}
                </p>
              ) : null}
            </div>
            <button
              type="button"
              onClick={download}
              aria-busy={downloading || undefined}
              className={cx(controlClass, 'w-auto gap-2 px-4 font-semibold')}
            >
              {downloading ? (
                <Spinner size="sm" label="Loading" />
              ) : (
                <Download aria-hidden="true" className="size-5" />
              )}
              <span className="max-sm:sr-only">Download</span>
            </button>
            <button type="button" aria-label="Close" onClick={onClose} className={controlClass}>
              <X aria-hidden="true" className="size-5" />
            </button>
          </div>
          {downloadError ? (
            <p
              role="alert"
              className="mx-4 rounded-lg bg-danger-50 px-3 py-2 text-sm text-danger-800"
            >
              {downloadError}
            </p>
          ) : null}
          <div className="relative flex min-h-0 flex-1 items-center justify-center gap-2 px-2 pb-6 sm:gap-4 sm:px-6">
            {count > 1 ? (
              <button
                type="button"
                aria-label="Previous image"
                onClick={() => move(-1)}
                className={controlClass}
              >
                <ChevronLeft aria-hidden="true" className="size-6" />
              </button>
            ) : null}
            <ViewerImage key={image.key} image={image} />
            {count > 1 ? (
              <button
                type="button"
                aria-label="Next image"
                onClick={() => move(1)}
                className={controlClass}
              >
                <ChevronRight aria-hidden="true" className="size-6" />
              </button>
            ) : null}
          </div>
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}

function ViewerImage({ image }: { image: MessageAttachment }) {
  const { data: url, isError, error } = useQuery(inlineAttachmentQuery(image.key))
  return (
    <div className="flex h-full min-w-0 flex-1 items-center justify-center">
      {url ? (
        <img src={url} alt={image.filename} className="size-full object-contain" />
      ) : isError ? (
        <p role="alert" className="flex flex-col items-center gap-2 text-center text-white/90">
          <ImageOff aria-hidden="true" className="size-8" />
          {error.message}
        </p>
      ) : (
        <Spinner size="lg" label="Loading image" className="text-white" />
      )}
    </div>
  )
}
