import type { HTMLAttributes, Ref } from 'react'
import { cx } from '../utils'

export type TextSize = 'sm' | 'md' | 'lg'
export type TextTone = 'default' | 'muted' | 'danger' | 'success'

interface TextOwnProps {
  /** Default 'md'. */
  size?: TextSize
  /** Colour role. Default 'default'. */
  tone?: TextTone
  /** Font weight shortcut. */
  weight?: 'normal' | 'medium' | 'semibold' | 'bold'
}

const sizes: Record<TextSize, string> = {
  sm: 'text-sm',
  md: 'text-base',
  lg: 'text-lg',
}

const tones: Record<TextTone, string> = {
  default: 'text-ink',
  muted: 'text-ink-muted',
  danger: 'text-danger-700',
  success: 'text-success-700',
}

const weights = {
  normal: 'font-normal',
  medium: 'font-medium',
  semibold: 'font-semibold',
  bold: 'font-bold',
} as const

function textClassName(
  { size = 'md', tone = 'default', weight }: TextOwnProps,
  className?: string,
) {
  return cx(sizes[size], tones[tone], weight && weights[weight], className)
}

export interface TextProps extends TextOwnProps, HTMLAttributes<HTMLSpanElement> {
  ref?: Ref<HTMLSpanElement>
}

/** Inline text (<span>). */
export function Text({ size, tone, weight, className, ...rest }: TextProps) {
  return <span {...rest} className={textClassName({ size, tone, weight }, className)} />
}

export interface ParagraphProps extends TextOwnProps, HTMLAttributes<HTMLParagraphElement> {
  ref?: Ref<HTMLParagraphElement>
}

/** A paragraph (<p>). */
export function Paragraph({ size, tone, weight, className, ...rest }: ParagraphProps) {
  return (
    <p {...rest} className={textClassName({ size, tone, weight }, cx('text-pretty', className))} />
  )
}

export interface OverlineProps extends HTMLAttributes<HTMLSpanElement> {
  /** Colour role. Default 'accent'. */
  tone?: 'accent' | 'primary' | 'muted'
  ref?: Ref<HTMLSpanElement>
}

const overlineTones = {
  accent: 'text-accent-700',
  primary: 'text-primary-700',
  muted: 'text-ink-muted',
} as const

/** A small uppercase label set above a heading (e.g. 'Partner offer', 'Step 1 of 3'). */
export function Overline({ tone = 'accent', className, ...rest }: OverlineProps) {
  return (
    <span
      {...rest}
      className={cx('block text-overline font-semibold uppercase', overlineTones[tone], className)}
    />
  )
}
