/** Onboarding: the three steps, and the contact details form the Account page shares. */
export { onboardingAnswersQuery } from './api'
export { ContactDetailsForm, contactDetailsInitial } from './components/ContactDetailsForm'
