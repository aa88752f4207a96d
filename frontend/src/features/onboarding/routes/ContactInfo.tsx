import { useQuery } from '@tanstack/react-query'
import { useNavigate } from 'react-router'
import { Button, Heading, Paragraph, RetryAlert } from '@/design-system'
import { useCurrentUser } from '@/lib/currentUser'
import { ANSWERS_FAILED, onboardingAnswersQuery } from '../api'
import { ContactDetailsForm, contactDetailsInitial } from '../components/ContactDetailsForm'
import { OnboardingLayout } from '../components/OnboardingLayout'
import { StepActions } from '../components/StepActions'
import { StepLoading } from '../components/StepLoading'

/** Onboarding step 3 of 3: contact details; Finish goes to the Dashboard. */
export default function ContactInfo() {
  const user = useCurrentUser()
  const answers = useQuery(onboardingAnswersQuery)
  const navigate = useNavigate()
  return (
    <OnboardingLayout step={3}>
      {answers.isPending ? (
        <StepLoading />
      ) : answers.isError ? (
        <RetryAlert message={ANSWERS_FAILED} onRetry={() => void answers.refetch()} />
      ) : (
        <ContactDetailsForm
          initial={contactDetailsInitial(answers.data, user.email)}
          onSaved={() => navigate('/dashboard', { replace: true })}
          header={
            <header className="flex flex-col gap-2">
              <Heading level={1}>How can we reach you?</Heading>
              <Paragraph tone="muted">
                Your concierge uses these details to book, order and arrange things for you. You can
                skip anything you’d rather not share.
              </Paragraph>
            </header>
          }
          actions={(submitting) => (
            <StepActions back="/welcome/about-you">
              <Button type="submit" loading={submitting}>
                Finish
              </Button>
            </StepActions>
          )}
        />
      )}
    </OnboardingLayout>
  )
}
