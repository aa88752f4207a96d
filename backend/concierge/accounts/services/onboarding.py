"""Onboarding: saving what an employee tells us about themselves, by the answers' spec §3 ids."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError as DjangoValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.utils import timezone

from concierge.accounts import onboarding
from concierge.accounts.models import OnboardingAnswer, User
from concierge.accounts.onboarding import Answer
from concierge.common import formatting
from concierge.common.errors import ValidationFailed
from concierge.common.validation import too_long

ADDRESS_PART_MAX = 200
# The parts joined on one line with ", " (the 611 group the page sends with them).
ADDRESS_LINE_MAX = len(onboarding.ADDRESS_PARTS) * (ADDRESS_PART_MAX + 2)


def _onboarding_errors(values: dict[int, Any]) -> dict[str, list[str]]:
    errors: dict[str, list[str]] = {}
    for answer_id in onboarding.YES_NO:
        if values.get(answer_id) is not None and not isinstance(values[answer_id], bool):
            errors[str(answer_id)] = ["Please answer yes or no"]
    phone = values.get(Answer.PHONE)
    if phone and not (
        isinstance(phone, str) and len(formatting.phone_digits(phone)) == formatting.PHONE_DIGITS
    ):
        errors[str(Answer.PHONE)] = ["Please enter a valid phone number"]
    email = values.get(Answer.PREFERRED_EMAIL)
    if email:
        try:
            if not isinstance(email, str):
                raise DjangoValidationError("not a string")
            validate_email(email)
        except DjangoValidationError:
            errors[str(Answer.PREFERRED_EMAIL)] = ["Please enter a valid email address"]
    errors.update(_address_text_errors(values))
    if any(_filled(values.get(answer_id)) for answer_id in onboarding.ADDRESS_PARTS):
        for answer_id, label in onboarding.ADDRESS_REQUIRED.items():
            if not _filled(values.get(answer_id)):
                errors[str(answer_id)] = [f"Please enter your {label}"]
    return errors


def _address_text_errors(values: dict[int, Any]) -> dict[str, list[str]]:
    """The address and its parts are text (or null) of a real address's length: anything else
    would pass as filled and be stored where the desk and the surveys read only text."""
    errors: dict[str, list[str]] = {}
    for answer_id in (Answer.ADDRESS, *onboarding.ADDRESS_PARTS):
        value = values.get(answer_id)
        limit = ADDRESS_LINE_MAX if answer_id == Answer.ADDRESS else ADDRESS_PART_MAX
        if value is not None and not isinstance(value, str):
            errors[str(answer_id)] = [
                f"Please enter your {Answer(answer_id).label.lower()} as text"
            ]
        elif value is not None and len(value) > limit:
            errors[str(answer_id)] = [too_long(limit)]
    return errors


def _filled(value: Any) -> bool:
    return value is not None and str(value).strip() != ""


@transaction.atomic
def onboarding_answers_save(*, user: User, answers: list[dict[str, Any]]) -> None:
    """Stores onboarding answers by their spec §3 ids; the address is all-or-nothing."""
    unknown = sorted({a["answer_id"] for a in answers} - onboarding.ALL)
    if unknown:
        raise ValidationFailed.for_field(
            "answers", f"Unknown answer id: {', '.join(map(str, unknown))}"
        )
    values = {a["answer_id"]: a["value"] for a in answers}
    if errors := _onboarding_errors(values):
        raise ValidationFailed(next(iter(errors.values()))[0], errors=errors)
    for answer in answers:
        OnboardingAnswer.objects.update_or_create(
            user=user, answer_id=answer["answer_id"], defaults={"value": answer["value"]}
        )
    if user.onboarded_at is None:
        user.onboarded_at = timezone.now()
        user.save(update_fields=["onboarded_at"])
