import { X } from 'lucide-react'
import type { ReactNode } from 'react'
import { Dialog, Heading, Modal, ModalOverlay } from 'react-aria-components'
import { cx, focusRing } from '../utils'

export type DrawerPlacement = 'right' | 'left' | 'top' | 'bottom'
export type DrawerVariant = 'nav' | 'panel'

export interface DrawerProps {
  isOpen: boolean
  /** Closes the drawer (the host sets isOpen to false). */
  onClose: () => void
  /**
   * Intercepts every close attempt (Escape, mask click, close icon). When given, it is called
   * instead of `onClose`, so the host can ask for confirmation first and then close itself.
   */
  onRequestClose?: () => void
  /** Dialog title, shown in the header and used as the accessible name (aria-labelledby). */
  title?: ReactNode
  /** Keep the title for screen readers only. */
  hideTitle?: boolean
  /** Accessible name when there is no title. */
  'aria-label'?: string
  /** Side it slides in from. Default 'right'. */
  placement?: DrawerPlacement
  /** 'nav' is 275 px wide on wide screens, 'panel' (default) 660 px. Full width on small screens. */
  variant?: DrawerVariant
  /** Escape and mask click close it. Default true. When false only the close icon (if shown) closes it. */
  isDismissable?: boolean
  hideCloseButton?: boolean
  /** No padding around the body (content runs edge to edge). */
  fullBleed?: boolean
  /** Sticky content under the scrollable body (e.g. actions). */
  footer?: ReactNode
  /** Extra content in the header, left of the close icon. */
  headerActions?: ReactNode
  children?: ReactNode
  className?: string
  bodyClassName?: string
}

const placementClasses: Record<DrawerPlacement, string> = {
  right: 'inset-y-0 right-0 h-full w-full sm:rounded-l-2xl',
  left: 'inset-y-0 left-0 h-full w-full sm:rounded-r-2xl',
  top: 'inset-x-0 top-0 max-h-[90dvh] w-full rounded-b-2xl',
  bottom: 'inset-x-0 bottom-0 max-h-[90dvh] w-full rounded-t-2xl',
}

const animationClasses: Record<DrawerPlacement, string> = {
  right:
    'motion-safe:data-entering:animate-drawer-in-right motion-safe:data-exiting:animate-drawer-out-right',
  left: 'motion-safe:data-entering:animate-drawer-in-left motion-safe:data-exiting:animate-drawer-out-left',
  top: 'motion-safe:data-entering:animate-drawer-in-top motion-safe:data-exiting:animate-drawer-out-top',
  bottom:
    'motion-safe:data-entering:animate-drawer-in-bottom motion-safe:data-exiting:animate-drawer-out-bottom',
}

const widthClasses: Record<DrawerVariant, string> = {
  nav: 'sm:max-w-drawer-nav',
  panel: 'sm:max-w-drawer-panel',
}

/**
 * A side drawer (modal dialog) built on React Aria's ModalOverlay/Modal/Dialog: focus is trapped
 * and restored, the page behind is inert, and it slides in over 0.3 s (no motion when the user
 * prefers reduced motion).
 */
export function Drawer({
  isOpen,
  onClose,
  onRequestClose,
  title,
  hideTitle = false,
  'aria-label': ariaLabel,
  placement = 'right',
  variant = 'panel',
  isDismissable = true,
  hideCloseButton = false,
  fullBleed = false,
  footer,
  headerActions,
  children,
  className,
  bodyClassName,
}: DrawerProps) {
  const requestClose = () => {
    if (onRequestClose) onRequestClose()
    else onClose()
  }
  const sideways = placement === 'left' || placement === 'right'
  const showHeader = (title && !hideTitle) || !hideCloseButton || headerActions

  return (
    <ModalOverlay
      isOpen={isOpen}
      onOpenChange={(open) => {
        if (!open) requestClose()
      }}
      isDismissable={isDismissable}
      isKeyboardDismissDisabled={!isDismissable}
      data-drawer-mask=""
      className={cx(
        'fixed inset-0 z-modal bg-scrim',
        'motion-safe:data-entering:animate-fade-in motion-safe:data-exiting:animate-fade-out',
      )}
    >
      <Modal
        className={cx(
          'fixed flex flex-col bg-surface text-ink shadow-xl outline-none',
          placementClasses[placement],
          sideways && widthClasses[variant],
          animationClasses[placement],
          className,
        )}
      >
        <Dialog
          aria-label={title ? undefined : ariaLabel}
          className="flex h-full max-h-[inherit] min-h-0 flex-col outline-none"
        >
          {showHeader ? (
            <header
              className={cx(
                'flex shrink-0 items-center gap-3 border-b border-line px-4 py-3 sm:px-6',
                !title || hideTitle ? 'justify-end border-b-0' : 'justify-between',
              )}
            >
              {title ? (
                <Heading
                  slot="title"
                  className={cx(
                    hideTitle ? 'sr-only' : 'min-w-0 text-lg font-semibold text-ink wrap-anywhere',
                  )}
                >
                  {title}
                </Heading>
              ) : null}
              <div className="flex shrink-0 items-center gap-2">
                {headerActions}
                {hideCloseButton ? null : (
                  <button
                    type="button"
                    aria-label="Close"
                    onClick={requestClose}
                    className={cx(
                      'inline-flex size-10 items-center justify-center rounded-full text-ink-muted hover:bg-neutral-100 hover:text-ink',
                      focusRing,
                    )}
                  >
                    <X aria-hidden="true" className="size-5" />
                  </button>
                )}
              </div>
            </header>
          ) : title ? (
            <Heading slot="title" className="sr-only">
              {title}
            </Heading>
          ) : null}
          <div
            data-drawer-body=""
            className={cx(
              'min-h-0 flex-1 overflow-y-auto overscroll-contain',
              fullBleed ? 'p-0' : 'px-4 py-5 sm:px-6',
              bodyClassName,
            )}
          >
            {children}
          </div>
          {footer ? (
            <footer className="shrink-0 border-t border-line bg-surface px-4 py-3 pb-[max(0.75rem,env(safe-area-inset-bottom))] sm:px-6">
              {footer}
            </footer>
          ) : null}
        </Dialog>
      </Modal>
    </ModalOverlay>
  )
}
