import { useQuery, useQueryClient } from '@tanstack/react-query'
import { type FormEvent, useState } from 'react'
import { useNavigate } from 'react-router'
import { Button, Chip, ChipGroup, FormError, Heading, Paragraph, RetryAlert } from '@/design-system'
import { unexpectedError } from '@/lib/errors'
import { answerValue, LIFE_ANSWERS } from '../answers'
import { ANSWERS_FAILED, onboardingAnswersQuery, saveOnboardingAnswers } from '../api'
import { OnboardingLayout } from '../components/OnboardingLayout'
import { StepActions } from '../components/StepActions'
import { StepLoading } from '../components/StepLoading'

/** Onboarding step 2 of 3: five yes/no facts about the user's life. */
export default function AboutYou() {
  const answers = useQuery(onboardingAnswersQuery)
  return (
    <OnboardingLayout step={2}>
      {answers.isPending ? (
        <StepLoading />
      ) : answers.isError ? (
        <RetryAlert message={ANSWERS_FAILED} onRetry={() => void answers.refetch()} />
      ) : (
        <AboutYouForm
          initial={LIFE_ANSWERS.filter(({ id }) => answerValue(answers.data, id) === true).map(
            ({ id }) => String(id),
          )}
        />
      )}
    </OnboardingLayout>
  )
}

function AboutYouForm({ initial }: { initial: string[] }) {
  const navigate = useNavigate()
  const queryClient = useQueryClient()
  const [selected, setSelected] = useState<string[]>(initial)
  const [saving, setSaving] = useState(false)
  const [serverError, setServerError] = useState<string>()

  const onContinue = async (event: FormEvent) => {
    event.preventDefault()
    setSaving(true)
    setServerError(undefined)
    try {
      const result = await saveOnboardingAnswers(
        LIFE_ANSWERS.map(({ id }) => ({ answer_id: id, value: selected.includes(String(id)) })),
      )
      if (!result.success) {
        setServerError(result.error)
        return
      }
      // Back from step 3 shows these answers, not the ones read before they were saved.
      await queryClient.invalidateQueries({ queryKey: onboardingAnswersQuery.queryKey })
      navigate('/welcome/contact-info')
    } catch (error) {
      setServerError(unexpectedError(error))
    } finally {
      setSaving(false)
    }
  }

  return (
    <form onSubmit={onContinue} className="flex flex-col gap-6">
      <header className="flex flex-col gap-2">
        <Heading level={1}>Tell us a little about you</Heading>
        <Paragraph tone="muted">
          We’ll suggest requests that fit your life. Choose any that apply, or none at all.
        </Paragraph>
      </header>
      <ChipGroup
        type="checkbox"
        label="Which of these describe you?"
        value={selected}
        onChange={setSelected}
        className="[&>div]:grid [&>div]:gap-3 sm:[&>div]:grid-cols-2"
      >
        {LIFE_ANSWERS.map(({ id, label, description }) => (
          <Chip
            key={id}
            variant="checkbox"
            value={String(id)}
            label={label}
            description={description}
            className="w-full"
          />
        ))}
      </ChipGroup>
      <FormError message={serverError} />
      <StepActions back="/welcome/about-us">
        <Button type="submit" loading={saving}>
          Continue
        </Button>
      </StepActions>
    </form>
  )
}
