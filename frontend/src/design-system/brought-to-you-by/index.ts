export type { SponsorCompany } from './BroughtToYouBy'
export { BroughtToYouBy } from './BroughtToYouBy'
