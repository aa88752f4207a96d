/** The employee's account: what other screens show of it (the email-verification notice). */
export { EmailVerificationNotice } from './components/EmailVerificationNotice'
