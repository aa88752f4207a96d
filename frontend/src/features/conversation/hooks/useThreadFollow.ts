/**
 * How a thread follows its newest message, as messengers do:
 * - it opens scrolled to the newest message;
 * - a message arriving at the end (a reply, live) scrolls into view when the reader is at the
 *   end already; when they have scrolled up to read, it waits behind a 'New message' pill
 *   instead of moving the page under them (`unseen`, cleared by `showNewest` or by scrolling
 *   down);
 * - the viewer's own new message always scrolls into view, and a reader at the end stays
 *   there when the screen changes height (an on-screen keyboard opening);
 * - a message from the other side is announced by a polite live region (`announcement`):
 *   that message only, never the whole thread.
 * Older pages loaded above leave the end as it is, so they change nothing here.
 *
 * The page scrolls (the window); `endRef` marks the end of the conversation (after the
 * composer), with a scroll-margin that keeps it clear of anything fixed at the bottom.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react'
import type { ThreadEntry } from '../thread'

/** How close to the end still counts as 'at the end', in px. */
const AT_END_SLACK = 96
/** Longest a smooth scroll of ours is taken to run where the browser has no `scrollend`. */
const OWN_SCROLL_MAX_MS = 2000
const ANNOUNCEMENT_MAX = 280

function plainText(html: string): string {
  const doc = new DOMParser().parseFromString(html.replace(/<br\s*\/?>/gi, ' '), 'text/html')
  return (doc.body.textContent ?? '').replace(/\s+/g, ' ').trim()
}

/** 'New message from Casey from Concierge: Found three walkers…'. */
export function newMessageAnnouncement(entry: ThreadEntry, who: string): string {
  if (entry.kind !== 'message') return ''
  let text = plainText(entry.bodyHtml)
  if (text.length > ANNOUNCEMENT_MAX) text = `${text.slice(0, ANNOUNCEMENT_MAX - 1)}…`
  const files = entry.attachments.length
  const withFiles = files ? ` (${files === 1 ? '1 attachment' : `${files} attachments`})` : ''
  return `New message from ${who}: ${text}${withFiles}`
}

function prefersReducedMotion(): boolean {
  return window.matchMedia?.('(prefers-reduced-motion: reduce)').matches ?? false
}

export function useThreadFollow({
  entries,
  isOwn,
  whoOf,
  openAtEnd = true,
}: {
  entries: readonly ThreadEntry[]
  /** Whether the viewer wrote this entry (their side). */
  isOwn: (entry: ThreadEntry) => boolean
  /** The sender's name as the thread shows it. */
  whoOf: (entry: ThreadEntry) => string
  /** Whether the page opens scrolled to the newest message (false: where it is, the desk). */
  openAtEnd?: boolean
}) {
  const endRef = useRef<HTMLDivElement>(null)
  const atEnd = useRef(true)
  const [unseen, setUnseen] = useState(false)
  const [announcement, setAnnouncement] = useState('')
  const last = entries.at(-1)
  const lastId = last?.id
  const seenLast = useRef<string | undefined>(undefined)
  const opened = useRef(false)

  const isAtEnd = useCallback(() => {
    const end = endRef.current
    if (!end) return true
    return end.getBoundingClientRect().top <= window.innerHeight + AT_END_SLACK
  }, [])

  // While a smooth scroll of ours runs towards the end, its first steps are still far from
  // it: they must not count as the reader scrolling away (a keyboard opening then would
  // leave the newest message below the screen).
  const ownScrollUntil = useRef(0)

  const scrollToEnd = useCallback((smooth: boolean) => {
    const behavior = smooth && !prefersReducedMotion() ? 'smooth' : 'auto'
    ownScrollUntil.current = behavior === 'smooth' ? Date.now() + OWN_SCROLL_MAX_MS : 0
    endRef.current?.scrollIntoView?.({ block: 'end', behavior })
    atEnd.current = true
  }, [])

  useEffect(() => {
    const onScroll = () => {
      if (Date.now() < ownScrollUntil.current) return
      atEnd.current = isAtEnd()
      if (atEnd.current) setUnseen(false)
    }
    const onScrollEnd = () => {
      ownScrollUntil.current = 0
      onScroll()
    }
    // The screen got shorter or taller (an on-screen keyboard, a rotation): a reader at the
    // end stays at the end.
    // After the frame, so what the new height changes (the bottom bar) is laid out first.
    const onResize = () => {
      if (atEnd.current) requestAnimationFrame(() => scrollToEnd(false))
    }
    window.addEventListener('scroll', onScroll, { passive: true })
    window.addEventListener('scrollend', onScrollEnd, { passive: true })
    window.addEventListener('resize', onResize)
    return () => {
      window.removeEventListener('scroll', onScroll)
      window.removeEventListener('scrollend', onScrollEnd)
      window.removeEventListener('resize', onResize)
    }
  }, [isAtEnd, scrollToEnd])

  // Opens at the newest message; once more after the frame, so a scroll restored by the
  // router on navigation does not win.
  useLayoutEffect(() => {
    if (opened.current) return
    opened.current = true
    seenLast.current = lastId
    if (!openAtEnd) {
      atEnd.current = isAtEnd()
      return
    }
    scrollToEnd(false)
    const frame = requestAnimationFrame(() => scrollToEnd(false))
    return () => cancelAnimationFrame(frame)
  }, [lastId, scrollToEnd, openAtEnd, isAtEnd])

  // A new entry at the end.
  useLayoutEffect(() => {
    if (!opened.current || lastId === seenLast.current) return
    seenLast.current = lastId
    if (last?.kind !== 'message') return
    if (isOwn(last)) {
      setUnseen(false)
      scrollToEnd(true)
      return
    }
    setAnnouncement(newMessageAnnouncement(last, whoOf(last)))
    if (atEnd.current) scrollToEnd(true)
    else setUnseen(true)
  }, [lastId, last, isOwn, whoOf, scrollToEnd])

  /**
   * Something shown after the messages has appeared or grown (the rating card): a reader at
   * the end stays at the end, so it shows above the composer rather than under it.
   */
  const keepAtEnd = useCallback(() => {
    if (atEnd.current) scrollToEnd(false)
  }, [scrollToEnd])

  /** The pill: brings the newest message into view. */
  const showNewest = useCallback(() => {
    setUnseen(false)
    scrollToEnd(true)
  }, [scrollToEnd])

  return { endRef, unseen, showNewest, keepAtEnd, announcement }
}
