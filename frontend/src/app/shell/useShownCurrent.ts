import { useNavigation } from 'react-router'
import { NAV_ITEMS } from './navItems'

const LINKED = [...NAV_ITEMS.map(({ to }) => to), '/account']

interface LinkState {
  isActive: boolean
  isPending: boolean
}

/**
 * Whether a navigation link looks like the screen shown: the link of the screen on screen, or,
 * from the tap until the next screen has loaded, the link tapped instead (its skeleton already
 * shows, ScreenOutlet). `aria-current` stays with the address until it changes.
 */
export function useShownCurrent(): (link: LinkState) => boolean {
  const navigation = useNavigation()
  const loading = navigation.state === 'loading' ? navigation.location.pathname : null
  const toAnotherLink =
    loading !== null && LINKED.some((to) => loading === to || loading.startsWith(`${to}/`))
  return ({ isActive, isPending }) => isPending || (isActive && !toAnotherLink)
}
