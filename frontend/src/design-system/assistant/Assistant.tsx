import { type SVGProps, useId } from 'react'
import { cx } from '../utils'

/** The friendly assistant character who leads the request flow and empty states. */
export const ASSISTANT_NAME = 'Penny'

export type AssistantSize = 'sm' | 'md' | 'lg'

export interface AssistantProps extends Omit<SVGProps<SVGSVGElement>, 'children' | 'ref'> {
  /** Default 'md'. sm 40 px, md 72 px, lg 128 px. */
  size?: AssistantSize
  /** Give it a title to make it an image with a name; without a title it is decorative (aria-hidden). */
  title?: string
  /** Raise a hand to wave hello. */
  waving?: boolean
}

const sizes: Record<AssistantSize, string> = {
  sm: 'size-10',
  md: 'size-18',
  lg: 'size-32',
}

/**
 * Penny, the concierge assistant: a round teal character with a coral bellhop cap.
 * Original artwork drawn for this product.
 */
export function Assistant({
  size = 'md',
  title,
  waving = false,
  className,
  ...rest
}: AssistantProps) {
  const titleId = useId()
  const a11y = title
    ? { role: 'img', 'aria-labelledby': titleId }
    : { 'aria-hidden': true as const }
  return (
    // biome-ignore lint/a11y/noSvgWithoutTitle: a <title> is rendered when `title` is given; otherwise aria-hidden
    <svg
      viewBox="0 0 120 120"
      focusable="false"
      data-assistant={ASSISTANT_NAME}
      {...a11y}
      {...rest}
      className={cx('shrink-0', sizes[size], className)}
    >
      {title ? <title id={titleId}>{title}</title> : null}
      {/* shadow */}
      <ellipse cx="60" cy="111" rx="30" ry="5" fill="#12100f" opacity="0.08" />
      {/* arms */}
      <ellipse cx="22" cy="78" rx="8" ry="11" fill="#1f766d" transform="rotate(20 22 78)" />
      {waving ? (
        <g>
          <ellipse cx="99" cy="46" rx="8" ry="11" fill="#1f766d" transform="rotate(-30 99 46)" />
          <path
            d="M108 30q4 3 4 8M112 26q6 5 6 12"
            stroke="#f05d38"
            strokeWidth="2.5"
            strokeLinecap="round"
            fill="none"
          />
        </g>
      ) : (
        <ellipse cx="98" cy="78" rx="8" ry="11" fill="#1f766d" transform="rotate(-20 98 78)" />
      )}
      {/* body */}
      <circle cx="60" cy="66" r="40" fill="#2b9186" />
      <path d="M28 80a40 40 0 0 0 64 0" fill="#1f766d" opacity="0.35" />
      {/* face */}
      <ellipse cx="60" cy="71" rx="28" ry="23" fill="#effaf8" />
      {/* eyes */}
      <ellipse cx="50" cy="67" rx="4" ry="5" fill="#12100f" />
      <ellipse cx="70" cy="67" rx="4" ry="5" fill="#12100f" />
      <circle cx="51.4" cy="65.2" r="1.4" fill="#ffffff" />
      <circle cx="71.4" cy="65.2" r="1.4" fill="#ffffff" />
      {/* cheeks */}
      <circle cx="42" cy="77" r="4.5" fill="#ffa183" opacity="0.7" />
      <circle cx="78" cy="77" r="4.5" fill="#ffa183" opacity="0.7" />
      {/* smile */}
      <path
        d="M52 79q8 8 16 0"
        stroke="#12100f"
        strokeWidth="3"
        strokeLinecap="round"
        fill="none"
      />
      {/* bellhop cap */}
      <g transform="rotate(-8 60 28)">
        <rect x="41" y="19" width="38" height="16" rx="5" fill="#f05d38" />
        <rect x="41" y="30" width="38" height="5" rx="2" fill="#b43718" />
        <circle cx="60" cy="18" r="3.5" fill="#fdd98a" />
      </g>
    </svg>
  )
}
