import { useEffect, useRef, useState } from 'react'

/**
 * Whether the element is on screen or near it (`margin`), latched: once seen it stays true.
 * Where IntersectionObserver is missing, everything counts as seen.
 */
export function useInView<T extends Element>(margin = '300px') {
  const ref = useRef<T>(null)
  const [seen, setSeen] = useState(() => typeof IntersectionObserver === 'undefined')
  useEffect(() => {
    const element = ref.current
    if (seen || !element) return
    const observer = new IntersectionObserver(
      (records) => {
        if (records.some((record) => record.isIntersecting)) setSeen(true)
      },
      { rootMargin: margin },
    )
    observer.observe(element)
    return () => observer.disconnect()
  }, [seen, margin])
  return [ref, seen] as const
}
