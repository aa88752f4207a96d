"""The surveys' part of a person's data (issue 27): the answers behind each request for
'Download my data', and their erasure. Called by `concierge.privacy` only."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from concierge.surveys.models import UserRequestAnswer, UserRequestSurvey


def survey_answers_export(*, user: Any) -> dict[int | None, list[dict[str, Any]]]:
    """The person's answers by the id of the request their survey made (None: a survey not
    submitted yet), each with its question's label, in the survey's order."""
    answers = (
        UserRequestAnswer.objects.filter(user_request_survey__user=user)
        .select_related("question", "user_request_survey__survey", "upload")
        .prefetch_related("question__select_options")
        .order_by("user_request_survey_id", "question__position", "question_id")
    )
    by_request: dict[int | None, list[dict[str, Any]]] = {}
    for answer in answers:
        run = answer.user_request_survey
        by_request.setdefault(run.service_request_id, []).append(
            {
                "survey": run.survey.name,
                "question": answer.question.label,
                # A choice as the person saw it ("Studio or 1 bedroom"), not its stored code.
                "answer": _as_shown(answer),
                "value": answer.value,
                "file": answer.upload.filename if answer.upload else None,
                "upload_key": answer.upload.key if answer.upload else None,
            }
        )
    return by_request


def _as_shown(answer: UserRequestAnswer) -> Any:
    labels = {option.value: option.label for option in answer.question.select_options.all()}
    return labels.get(answer.value, answer.value) if isinstance(answer.value, str) else answer.value


def survey_answers_erase_for_user(*, user: Any) -> int:
    """Deletes every answer the person gave and their unsubmitted runs; the submitted runs
    stay, empty, with their requests."""
    erased = UserRequestAnswer.objects.filter(user_request_survey__user=user).delete()[0]
    UserRequestSurvey.objects.filter(user=user, submitted_at__isnull=True).delete()
    return erased


def survey_answers_erase_for_requests(*, request_ids: Sequence[int]) -> int:
    """The answers behind the requests (a retention window's erasure)."""
    answers = UserRequestAnswer.objects.filter(
        user_request_survey__service_request_id__in=list(request_ids)
    )
    return answers.delete()[0]
