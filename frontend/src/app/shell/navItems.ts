import { Gift, LayoutDashboard, ListChecks, type LucideIcon } from 'lucide-react'

export interface NavItem {
  to: string
  label: string
  /** Shorter visible label for the mobile bar; the accessible name stays `label`. */
  shortLabel?: string
  icon: LucideIcon
  /** Shows how many requests have a reply the employee has not opened. */
  countsUnread?: boolean
}

/** The spec's navigation (§2): Dashboard, Requests, Benefits & Offers (then Account). */
export const NAV_ITEMS: readonly NavItem[] = [
  { to: '/dashboard', label: 'Dashboard', icon: LayoutDashboard },
  { to: '/requests', label: 'Requests', icon: ListChecks, countsUnread: true },
  { to: '/benefits-and-offers', label: 'Benefits & Offers', shortLabel: 'Benefits', icon: Gift },
]
