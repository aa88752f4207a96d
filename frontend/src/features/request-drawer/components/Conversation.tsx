/** The chat pieces of the request drawer: Penny's messages, the user's answers, typing dots. */
import type { ReactNode } from 'react'
import { ASSISTANT_NAME, Assistant, cx } from '@/design-system'

export function PennyMessage({
  children,
  id,
  showAvatar = true,
  className,
}: {
  children: ReactNode
  id?: string
  showAvatar?: boolean
  className?: string
}) {
  return (
    <div className={cx('flex items-end gap-2', className)} data-message="assistant">
      {showAvatar ? <Assistant size="sm" /> : <span aria-hidden="true" className="w-10 shrink-0" />}
      <div className="max-w-[85%] rounded-2xl rounded-bl-md bg-primary-50 px-4 py-2.5 text-ink wrap-anywhere shadow-xs">
        <span className="sr-only">{ASSISTANT_NAME}: </span>
        <span id={id}>{children}</span>
      </div>
    </div>
  )
}

export function UserBubble({ children, muted = false }: { children: ReactNode; muted?: boolean }) {
  return (
    <div
      className={cx(
        'max-w-[85%] self-end rounded-2xl rounded-br-md px-4 py-2.5 shadow-xs whitespace-pre-line wrap-anywhere',
        muted ? 'bg-neutral-100 text-ink-muted italic' : 'bg-primary-600 text-white',
      )}
      data-message="user"
    >
      <span className="sr-only">Your answer: </span>
      {children}
    </div>
  )
}

const dot = 'size-2 rounded-full bg-primary-500 motion-safe:animate-bounce'

/** Three bouncing dots; screen readers hear 'Penny is typing'. */
export function TypingIndicator() {
  return (
    <div className="flex items-end gap-2" data-testid="typing-indicator">
      <Assistant size="sm" />
      <div className="flex items-center gap-1.5 rounded-2xl rounded-bl-md bg-primary-50 px-4 py-3.5 shadow-xs">
        <span aria-hidden="true" className={cx(dot, '[animation-delay:-0.3s]')} />
        <span aria-hidden="true" className={cx(dot, '[animation-delay:-0.15s]')} />
        <span aria-hidden="true" className={dot} />
        <span className="sr-only">{ASSISTANT_NAME} is typing</span>
      </div>
    </div>
  )
}
