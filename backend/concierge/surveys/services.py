"""Survey writes: begin (or resume) a survey, answer or edit a question, submit as a request."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone

from concierge.common.errors import ApiError, NotFound, ValidationFailed
from concierge.common.formatting import PHONE_DIGITS, phone_digits
from concierge.common.validation import is_database_id, too_long
from concierge.offerings.selectors import offering_request_survey_id_for_user
from concierge.servicerequests.services import request_create
from concierge.surveys import selectors
from concierge.surveys.models import Question, UserRequestAnswer, UserRequestSurvey
from concierge.uploads.services import upload_require_uploaded

if TYPE_CHECKING:
    from concierge.accounts.models import User
    from concierge.uploads.models import Upload

DATUM = "Datum"  # spec §3 'Answer payload': object_satisfied_type is always Datum
TEXT_MAX = 5000
ALREADY_SUBMITTED = "This request has already been submitted."
QUESTION_NOT_IN_SURVEY = "That question isn't part of this request."
QUESTION_NOT_SHOWN = "That question doesn't apply to your earlier answers."
WRONG_OBJECT_TYPE = "object_satisfied_type must be 'Datum'."
ANSWER_REQUIRED = "Please answer this question."
TEXT_TOO_LONG = too_long(TEXT_MAX)
CHOOSE_AN_OPTION = "Please choose one of the options."
INVALID_PHONE = "Please enter a valid phone number"  # spec §5 phone text
INVALID_EMAIL = "Please enter a valid email address"  # spec §5 email text
UPLOAD_NOT_FOUND = "We couldn't find that file. Please upload it again."
PLEASE_ANSWER = "Please answer: {label}"
HELP_NOT_OFFERED = "That benefit or offer no longer offers this help."


def user_request_survey_begin(
    *, user: User, survey_id: int, start_over: bool = False, offering_id: int | None = None
) -> UserRequestSurvey:
    """Begin a survey, or resume the user's run of it that was not submitted (answers kept);
    with `start_over`, that run and its answers are discarded and a new one begins.

    A run begun from an offering's 'Get help' remembers that offering: only a begin for the
    same offering (or, without one, a begin from elsewhere) resumes it, so the answers given
    for one offering never travel to another.

    With `offering_id`, the offering must be one the user can see (404 "We couldn't find that
    benefit or offer.", as for the offering itself, so another company's benefit reads like
    one that does not exist) whose 'Get help' starts this survey (404 otherwise). The check
    comes before resuming or starting over: once an offer is turned off for the user, the run
    begun from it is neither resumed nor discarded by a begin. A drawer already open on that
    run can still answer and submit it, so no answer given is lost.

    A database constraint allows one unsubmitted run per user, survey and offering, so two
    concurrent begins end up with the same run.
    """
    survey = selectors.request_survey_get(survey_id=survey_id)
    if offering_id is not None:
        _require_get_help(user=user, survey_id=survey.pk, offering_id=offering_id)
    existing = _open_run(user=user, survey_id=survey.pk, offering_id=offering_id)
    if existing is not None and start_over:
        existing.delete()
        existing = None
    if existing is not None:
        return existing
    try:
        with transaction.atomic():
            return UserRequestSurvey.objects.create(
                user=user, survey=survey, offering_id=offering_id
            )
    except IntegrityError:
        run = _open_run(user=user, survey_id=survey.pk, offering_id=offering_id)
        if run is None:
            raise
        return run


def _require_get_help(*, user: User, survey_id: int, offering_id: int) -> None:
    if offering_request_survey_id_for_user(user=user, offering_id=offering_id) != survey_id:
        raise NotFound(HELP_NOT_OFFERED)


def _run_locked(*, user: User, user_request_survey_id: int) -> UserRequestSurvey:
    """The user's run, locked until the transaction ends (submit and discard take turns on
    it); another person's run, or one that is gone, is a 404."""
    if not is_database_id(user_request_survey_id):
        raise NotFound(selectors.USER_SURVEY_NOT_FOUND)
    run = (
        UserRequestSurvey.objects.select_for_update()
        .filter(pk=user_request_survey_id, user=user)
        .first()
    )
    if run is None:
        raise NotFound(selectors.USER_SURVEY_NOT_FOUND)
    return run


def user_request_survey_discard(*, user: User, user_request_survey_id: int) -> None:
    """Discard the user's unsubmitted run and its answers (the request was cancelled), so the
    next begin starts fresh. A submitted run is kept: its request exists. Another person's run,
    or one already gone, is a 404."""
    with transaction.atomic():
        # Locked as submit locks it: a submit under way ends first, and its run is then kept.
        run = _run_locked(user=user, user_request_survey_id=user_request_survey_id)
        if run.submitted_at is None:
            run.delete()


def _open_run(*, user: User, survey_id: int, offering_id: int | None) -> UserRequestSurvey | None:
    return (
        UserRequestSurvey.objects.filter(
            user=user, survey_id=survey_id, offering_id=offering_id, submitted_at__isnull=True
        )
        .order_by("-created_at", "-id")
        .first()
    )


def user_request_answer_save(
    *,
    user: User,
    user_request_survey_id: int,
    question_id: int,
    object_type: str,
    value: Any,
) -> UserRequestAnswer:
    """Answer a question of the user's run, or change its answer (one answer per question).

    409 when the run was submitted (another tab or device sent it: its request exists). 422
    when: the question is not in the survey or is hidden by the answers so far; the type is
    not 'Datum'; the value breaks its input type's rule. A null
    value skips an optional question. The value is stored normalised: trimmed text, a phone
    number's 10 digits, an upload's key (the upload must be the user's own and in storage).
    """
    flow = selectors.survey_flow_for_user(user=user, user_request_survey_id=user_request_survey_id)
    if flow.run.submitted_at is not None:
        raise ApiError(ALREADY_SUBMITTED, status_code=409)
    if object_type != DATUM:
        raise ValidationFailed.for_field("object_satisfied_type", WRONG_OBJECT_TYPE)
    question = flow.question(question_id)
    if question is None:
        raise ValidationFailed.for_field("object_satisfied_id", QUESTION_NOT_IN_SURVEY)
    if not flow.is_shown(question):
        raise ValidationFailed.for_field("object_satisfied_id", QUESTION_NOT_SHOWN)
    stored, upload = _clean_value(user=user, question=question, value=value)

    with transaction.atomic():
        run = UserRequestSurvey.objects.select_for_update().get(pk=flow.run.pk)
        if run.submitted_at is not None:
            raise ApiError(ALREADY_SUBMITTED, status_code=409)
        answer, _ = UserRequestAnswer.objects.update_or_create(
            user_request_survey=run,
            question=question,
            defaults={"value": stored, "upload": upload, "answered_at": timezone.now()},
        )
    return answer


def _clean_value(*, user: User, question: Question, value: Any) -> tuple[Any, Upload | None]:
    if value is None or (isinstance(value, str) and not value.strip()):
        if question.optional:
            return None, None  # skipped
        raise ValidationFailed.for_field("value", ANSWER_REQUIRED)
    if not isinstance(value, str):
        raise ValidationFailed.for_field("value", ANSWER_REQUIRED)
    kind = question.input_type
    if kind == Question.InputType.SINGLE_SELECT:
        if value not in {o.value for o in question.select_options.all()}:
            raise ValidationFailed.for_field("value", CHOOSE_AN_OPTION)
        return value, None
    if kind == Question.InputType.PHONE_NUMBER:
        digits = phone_digits(value)
        # 0-9, not \d: \d takes any script's digits ('٥٥٥…'), which no phone can dial.
        if len(digits) != PHONE_DIGITS or re.search(r"[^0-9\s()+.\-]", value):
            raise ValidationFailed.for_field("value", INVALID_PHONE)
        return digits, None
    if kind == Question.InputType.MANAGED_EMAIL:
        email = value.strip()
        try:
            validate_email(email)
        except DjangoValidationError:
            raise ValidationFailed.for_field("value", INVALID_EMAIL) from None
        return email, None
    if kind == Question.InputType.SINGLE_UPLOAD:
        return _clean_upload(user=user, key=value.strip())
    text = value.strip()
    if len(text) > TEXT_MAX:
        raise ValidationFailed.for_field("value", TEXT_TOO_LONG)
    return text, None


def _clean_upload(*, user: User, key: str) -> tuple[str, Upload]:
    """A file answer names an upload the user made for a survey (not a message attachment)
    that is really in storage; anything else is a 422 on the value."""
    try:
        upload = upload_require_uploaded(owner=user, key=key[:300])
    except ValidationFailed as exc:  # not (yet) in storage, or breaks the upload rules
        raise ValidationFailed.for_field("value", exc.message) from None
    except ApiError:  # NotFound: unknown key or somebody else's upload
        raise ValidationFailed.for_field("value", UPLOAD_NOT_FOUND) from None
    if upload.request_id is not None:
        raise ValidationFailed.for_field("value", UPLOAD_NOT_FOUND)
    return upload.key, upload


def user_request_survey_submit(*, user: User, user_request_survey_id: int) -> int:
    """Turn the user's answered run into a request; returns the request's id.

    422 naming the first shown required question without an answer ('Please answer: <label>',
    errors keyed by question id). Otherwise creates the request (name = survey name, status
    open, details = the answers summary, the survey's category; request_count goes up), marks
    the run submitted and links it. Idempotent: the run is locked, and a run already
    submitted returns its request's id without creating another.
    """
    with transaction.atomic():
        run = _run_locked(user=user, user_request_survey_id=user_request_survey_id)
        if run.submitted_at is not None and run.service_request_id is not None:
            return run.service_request_id
        if run.submitted_at is not None:  # its request was deleted: it stays submitted
            raise ValidationFailed(ALREADY_SUBMITTED)
        flow = selectors.survey_flow_for_user(user=user, user_request_survey_id=run.pk)
        missing = flow.missing()
        if missing:
            message = PLEASE_ANSWER.format(label=missing[0].label)
            raise ValidationFailed(
                message,
                errors={str(q.pk): [PLEASE_ANSWER.format(label=q.label)] for q in missing},
            )
        survey = flow.run.survey
        service_request = request_create(
            user=user,
            name=survey.name,
            details=selectors.answers_summary(flow=flow),
            survey_category_id=survey.category_id,
        )
        run.submitted_at = timezone.now()
        run.service_request = service_request
        run.save(update_fields=["submitted_at", "service_request"])
    return service_request.pk
