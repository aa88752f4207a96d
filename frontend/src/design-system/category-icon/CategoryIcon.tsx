import {
  Car,
  HeartPulse,
  House,
  type LucideIcon,
  type LucideProps,
  PawPrint,
  PiggyBank,
  Plane,
  Sparkles,
  Truck,
  Users,
} from 'lucide-react'

/** The spec's category icon names (§9). Anything else falls back to 'wildcard'. */
export type CategoryIconName =
  | 'car'
  | 'family'
  | 'finances'
  | 'home'
  | 'home_moving'
  | 'medical'
  | 'pet'
  | 'travel'
  | 'wildcard'

const ICONS: Record<CategoryIconName, LucideIcon> = {
  car: Car,
  family: Users,
  finances: PiggyBank,
  home: House,
  home_moving: Truck,
  medical: HeartPulse,
  pet: PawPrint,
  travel: Plane,
  wildcard: Sparkles,
}

const ALIASES: Record<string, CategoryIconName> = {
  moving: 'home_moving',
  home_and_moving: 'home_moving',
  employer_benefits: 'medical',
  medical_employer_benefits: 'medical',
  benefits: 'medical',
  health: 'medical',
  finance: 'finances',
  money: 'finances',
  pets: 'pet',
  auto: 'car',
  vehicle: 'car',
}

/**
 * Normalises a category icon name ('Home / Moving', 'home-moving', 'HOME_MOVING' → 'home_moving')
 * and maps unknown names to 'wildcard'.
 */
export function categoryIconName(name: string | null | undefined): CategoryIconName {
  const key = (name ?? '')
    .trim()
    .toLowerCase()
    .replace(/&/g, 'and')
    .replace(/\W+/g, '_')
    .replace(/^_+|_+$/g, '')
  if (key in ICONS) return key as CategoryIconName
  if (key in ALIASES) return ALIASES[key]
  return 'wildcard'
}

export interface CategoryIconProps extends Omit<LucideProps, 'ref' | 'name'> {
  /** Category icon name from the server (e.g. 'car', 'home_moving'); unknown → wildcard. */
  name: string | null | undefined
  /** Accessible label; without it the icon is decorative. */
  label?: string
}

/** The lucide-react icon for a request/offering category. */
export function CategoryIcon({ name, label, ...rest }: CategoryIconProps) {
  const resolved = categoryIconName(name)
  const Icon = ICONS[resolved]
  return (
    <Icon
      data-category-icon={resolved}
      {...(label ? { role: 'img', 'aria-label': label } : { 'aria-hidden': true })}
      {...rest}
    />
  )
}
