import { Link } from '@/design-system'
import { config } from '@/lib/config'

/** 'Contact support' by email (spec §2 SignIn, Account, UnlockUser). */
export function SupportLink({ children = 'Contact support' }: { children?: string }) {
  return <Link href={`mailto:${config.supportEmail}`}>{children}</Link>
}
