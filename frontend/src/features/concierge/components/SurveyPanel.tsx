import { Paperclip } from 'lucide-react'
import { cx, focusRing } from '@/design-system'
import type { DeskRequest } from '../api'
import { Fact, Facts, Panel } from './Panel'

/** An upload answer's file, opened through the attachments route in a new tab. */
export function uploadAnswerPath(key: string): string {
  return `/attachments/${encodeURIComponent(key)}`
}

/** The survey the request was made with: its question and answer pairs. */
export function SurveyPanel({ survey }: { survey: DeskRequest['survey'] }) {
  if (!survey) {
    return (
      <Panel title="Survey answers">
        <p className="text-sm text-ink-muted">This request was made without a survey.</p>
      </Panel>
    )
  }
  return (
    <Panel title="Survey answers" subtitle={survey.name}>
      {survey.answers.length === 0 ? (
        <p className="text-sm text-ink-muted">No answers were given.</p>
      ) : (
        <Facts>
          {survey.answers.map((answer, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: answers have no id and keep their order
            <Fact key={index} label={answer.question}>
              {answer.skipped ? (
                <span className="text-ink-muted italic">{answer.answer || 'Question Skipped'}</span>
              ) : answer.upload_key ? (
                <a
                  href={uploadAnswerPath(answer.upload_key)}
                  target="_blank"
                  rel="noopener"
                  className={cx(
                    'inline-flex items-center gap-1.5 rounded-sm font-semibold text-primary-700 underline underline-offset-2',
                    focusRing,
                  )}
                >
                  <Paperclip aria-hidden="true" className="size-3.5 shrink-0" />
                  {answer.answer || answer.upload_key.split('/').pop()}
                </a>
              ) : (
                <span className="whitespace-pre-line">{answer.answer}</span>
              )}
            </Fact>
          ))}
        </Facts>
      )}
    </Panel>
  )
}
