import { Check, ExternalLink, Sparkles } from 'lucide-react'
import { type ReactNode, useId } from 'react'
import {
  Checkbox as AriaCheckbox,
  CheckboxGroup as AriaCheckboxGroup,
  Radio as AriaRadio,
  RadioGroup as AriaRadioGroup,
  Text as AriaText,
  FieldError,
  Label,
} from 'react-aria-components'
import { Link as RouterLink, type LinkProps as RouterLinkProps } from 'react-router'
import { cx, focusRing } from '../utils'

export type ChipVariant = 'button' | 'link' | 'external-link' | 'radio' | 'checkbox'

interface ChipBaseProps {
  /** The chip's title. */
  label: ReactNode
  /** Required second line that says what the chip does or means. */
  description: ReactNode
  /** The only accepted picture is the default one (spec §5). */
  image?: 'default'
  /** Error state (red border; marks radio/checkbox chips invalid). */
  error?: boolean
  /** Disabled chips ignore interaction. */
  isDisabled?: boolean
  /**
   * Below `sm` the chip fills its row and its text box fits the title (no blank second line);
   * from `sm` up it keeps the 9rem x 3.5rem box (spec §9). For lists of choices on a phone.
   */
  stretch?: boolean
  /**
   * The key that chooses the chip ('1'), shown as a small key cap where there is a fine pointer
   * (so a keyboard, most likely), and never announced: the chip's name stays its title.
   */
  keyHint?: string
  className?: string
}

export interface ChipButtonProps extends ChipBaseProps {
  variant?: 'button'
  onPress?: () => void
  type?: 'button' | 'submit'
}

export interface ChipLinkProps extends ChipBaseProps {
  variant: 'link'
  to: RouterLinkProps['to']
}

export interface ChipExternalLinkProps extends ChipBaseProps {
  variant: 'external-link'
  href: string
}

export interface ChipRadioProps extends ChipBaseProps {
  variant: 'radio'
  /** Value within the surrounding <ChipGroup type="radio">. */
  value: string
}

export interface ChipCheckboxProps extends ChipBaseProps {
  variant: 'checkbox'
  /** Value within the surrounding <ChipGroup type="checkbox">. */
  value: string
}

export type ChipProps =
  | ChipButtonProps
  | ChipLinkProps
  | ChipExternalLinkProps
  | ChipRadioProps
  | ChipCheckboxProps

function chipClassName({
  error,
  isDisabled,
  stretch,
  className,
}: Pick<ChipBaseProps, 'error' | 'isDisabled' | 'stretch' | 'className'>) {
  return cx(
    'group ripple inline-flex max-w-full items-center gap-3 rounded-2xl border bg-surface p-3 text-start',
    stretch && 'min-h-12 w-full sm:w-auto',
    'shadow-xs transition-colors motion-reduce:transition-none no-underline',
    error ? 'border-danger-600' : 'border-line data-[invalid]:border-danger-600',
    isDisabled
      ? 'cursor-not-allowed opacity-60'
      : 'cursor-pointer hover:bg-primary-50/50 active:bg-primary-50',
    !isDisabled && !error && 'hover:border-primary-400',
    'data-[selected]:bg-primary-50 data-[selected]:ring-1',
    error
      ? 'data-[selected]:ring-danger-600'
      : 'data-[selected]:border-primary-600 data-[selected]:ring-primary-600',
    className,
  )
}

function DefaultPicture() {
  return (
    <span
      aria-hidden="true"
      className="inline-flex size-10 shrink-0 items-center justify-center rounded-full bg-accent-100 text-accent-700"
    >
      <Sparkles className="size-5" />
    </span>
  )
}

/** A description that says nothing ('', null): the title stands alone, centred in its box. */
function isBlank(description: ReactNode): boolean {
  return (
    description === '' || description === null || description === undefined || description === false
  )
}

function KeyHint({ children }: { children: string }) {
  return (
    <span
      aria-hidden="true"
      data-key-hint=""
      className={cx(
        'inline-flex h-6 min-w-6 shrink-0 items-center justify-center rounded-md border border-line-strong bg-surface px-1',
        'font-sans text-xs font-semibold text-ink-muted pointer-coarse:hidden',
        'group-data-[selected]:border-primary-600 group-data-[selected]:text-primary-700',
      )}
    >
      {children}
    </span>
  )
}

function ChipBody({
  label,
  description,
  image,
  stretch,
  keyHint,
  titleId,
  descriptionId,
  trailing,
}: Pick<ChipBaseProps, 'label' | 'description' | 'image' | 'stretch' | 'keyHint'> & {
  titleId: string
  descriptionId: string
  trailing?: ReactNode
}) {
  const blank = isBlank(description)
  return (
    <>
      {keyHint ? <KeyHint>{keyHint}</KeyHint> : null}
      {image === 'default' ? <DefaultPicture /> : null}
      {/* The title and description box: 9rem x 3.5rem on every chip, so chips line up (spec
          §9). Both texts keep to 2 lines of 1.125rem; the description gets what the title
          leaves (2 lines under a 1-line title, 1 under a 2-line one). A title without a
          description sits in the middle of the box, level with the chip's mark. */}
      <span
        data-chip-text=""
        className={cx(
          'flex min-w-0 flex-col gap-0.5 overflow-hidden',
          blank && 'justify-center',
          stretch ? 'flex-1 sm:h-chip-box sm:w-chip sm:flex-none' : 'h-chip-box w-chip shrink-0',
        )}
      >
        <span
          id={titleId}
          className="line-clamp-2 shrink-0 text-sm leading-[1.125rem] font-semibold text-ink wrap-anywhere"
        >
          {label}
        </span>
        {blank ? null : (
          <span
            id={descriptionId}
            className="line-clamp-2 min-h-0 text-xs leading-[1.125rem] text-ink-muted wrap-anywhere"
          >
            {description}
          </span>
        )}
      </span>
      {trailing}
    </>
  )
}

function SelectionMark({ shape }: { shape: 'radio' | 'checkbox' }) {
  return (
    <span
      aria-hidden="true"
      className={cx(
        'ms-auto inline-flex size-5 shrink-0 items-center justify-center border-2 border-neutral-400 bg-surface text-white',
        'group-data-[selected]:border-primary-600 group-data-[selected]:bg-primary-600',
        shape === 'radio' ? 'rounded-full' : 'rounded-md',
      )}
    >
      {shape === 'radio' ? (
        <span className="size-2 rounded-full bg-white opacity-0 group-data-[selected]:opacity-100" />
      ) : (
        <Check className="size-3.5 opacity-0 group-data-[selected]:opacity-100" strokeWidth={3} />
      )}
    </span>
  )
}

/**
 * A selectable chip: a small card with a title and a required description. Acts as a button,
 * an internal link, an external link, or a radio/checkbox inside a <ChipGroup>.
 */
export function Chip(props: ChipProps) {
  const uid = useId()
  const titleId = `${uid}-title`
  const descriptionId = `${uid}-description`
  const {
    label,
    description,
    image,
    error,
    isDisabled = false,
    stretch,
    keyHint,
    className,
  } = props
  const body = (trailing?: ReactNode) => (
    <ChipBody
      label={label}
      description={description}
      image={image}
      stretch={stretch}
      keyHint={keyHint}
      titleId={titleId}
      descriptionId={descriptionId}
      trailing={trailing}
    />
  )
  const describedBy = isBlank(description) ? undefined : descriptionId
  const labelling = { 'aria-labelledby': titleId, 'aria-describedby': describedBy }
  const classes = chipClassName({ error, isDisabled, stretch, className })

  switch (props.variant) {
    case 'radio':
      return (
        <AriaRadio
          value={props.value}
          isDisabled={isDisabled}
          {...labelling}
          className={cx(classes, focusWithinRing)}
        >
          {body(<SelectionMark shape="radio" />)}
        </AriaRadio>
      )
    case 'checkbox':
      return (
        <AriaCheckbox
          value={props.value}
          isDisabled={isDisabled}
          isInvalid={error || undefined}
          {...labelling}
          className={cx(classes, focusWithinRing)}
        >
          {body(<SelectionMark shape="checkbox" />)}
        </AriaCheckbox>
      )
    case 'link':
      if (isDisabled) {
        return (
          // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useSemanticElements: a disabled link is announced as an unavailable link and leaves the tab order
          <span role="link" aria-disabled="true" {...labelling} className={classes}>
            {body()}
          </span>
        )
      }
      return (
        <RouterLink to={props.to} {...labelling} className={cx(classes, focusRing)}>
          {body()}
        </RouterLink>
      )
    case 'external-link':
      if (isDisabled) {
        return (
          // biome-ignore lint/a11y/useFocusableInteractive lint/a11y/useSemanticElements: a disabled link is announced as an unavailable link and leaves the tab order
          <span role="link" aria-disabled="true" {...labelling} className={classes}>
            {body(
              <ExternalLink
                aria-hidden="true"
                className="ms-auto size-4 shrink-0 text-ink-muted"
              />,
            )}
          </span>
        )
      }
      return (
        <a
          href={props.href}
          target="_blank"
          rel="noopener noreferrer"
          aria-labelledby={`${titleId} ${uid}-newtab`}
          aria-describedby={describedBy}
          className={cx(classes, focusRing)}
        >
          {body(
            <ExternalLink aria-hidden="true" className="ms-auto size-4 shrink-0 text-ink-muted" />,
          )}
          <span id={`${uid}-newtab`} className="sr-only">
            (opens in a new tab)
          </span>
        </a>
      )
    default:
      return (
        <button
          type={props.type ?? 'button'}
          disabled={isDisabled}
          onClick={isDisabled ? undefined : props.onPress}
          aria-invalid={error || undefined}
          {...labelling}
          className={cx(classes, focusRing)}
        >
          {body()}
        </button>
      )
  }
}

const focusWithinRing =
  'data-[focus-visible]:outline-solid data-[focus-visible]:outline-2 data-[focus-visible]:outline-offset-2 data-[focus-visible]:outline-focus'

interface ChipGroupBaseProps {
  /** Group label (visible). */
  label: ReactNode
  /** Help text under the label. */
  description?: ReactNode
  /** Error message; marks the group invalid. */
  error?: string | null
  isDisabled?: boolean
  isRequired?: boolean
  name?: string
  children: ReactNode
  className?: string
}

export interface RadioChipGroupProps extends ChipGroupBaseProps {
  type: 'radio'
  value?: string | null
  defaultValue?: string | null
  onChange?: (value: string) => void
}

export interface CheckboxChipGroupProps extends ChipGroupBaseProps {
  type: 'checkbox'
  value?: string[]
  defaultValue?: string[]
  onChange?: (value: string[]) => void
}

export type ChipGroupProps = RadioChipGroupProps | CheckboxChipGroupProps

/** A group of radio or checkbox chips with React Aria's RadioGroup/CheckboxGroup semantics. */
export function ChipGroup(props: ChipGroupProps) {
  const { label, description, error, isDisabled, isRequired, name, children, className } = props
  const invalid = Boolean(error)
  const inner = (
    <>
      <Label className="text-sm font-semibold text-ink">{label}</Label>
      {description ? (
        <AriaText slot="description" className="text-sm text-ink-muted">
          {description}
        </AriaText>
      ) : null}
      <div className="flex flex-wrap gap-2">{children}</div>
      <FieldError className="text-sm font-medium text-danger-700">{error}</FieldError>
    </>
  )
  const groupClass = cx('flex flex-col gap-2', className)
  if (props.type === 'radio') {
    return (
      <AriaRadioGroup
        value={props.value}
        defaultValue={props.defaultValue}
        onChange={props.onChange}
        isInvalid={invalid}
        isDisabled={isDisabled}
        isRequired={isRequired}
        name={name}
        className={groupClass}
      >
        {inner}
      </AriaRadioGroup>
    )
  }
  return (
    <AriaCheckboxGroup
      value={props.value}
      defaultValue={props.defaultValue}
      onChange={props.onChange}
      isInvalid={invalid}
      isDisabled={isDisabled}
      isRequired={isRequired}
      name={name}
      className={groupClass}
    >
      {inner}
    </AriaCheckboxGroup>
  )
}
