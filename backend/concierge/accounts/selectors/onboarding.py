"""Onboarding answers: an employee's answers by id, and the profile they make, as the desk shows
it and surveys pre-fill it."""

from __future__ import annotations

from dataclasses import dataclass

from concierge.accounts.models import OnboardingAnswer, User
from concierge.accounts.onboarding import ADDRESS_PARTS, TEXT, YES_NO, Answer
from concierge.common.formatting import PHONE_DIGITS, address_line, phone_digits, phone_display


def onboarding_answers_for_user(*, user: User) -> dict[int, object]:
    return {a.answer_id: a.value for a in OnboardingAnswer.objects.filter(user=user)}


@dataclass(frozen=True)
class OnboardingItem:
    answer_id: int
    label: str
    value: str


@dataclass(frozen=True)
class EmployeeProfile:
    """What an employee told us at onboarding, as the desk shows it and surveys pre-fill it."""

    yes_no: dict[int, bool]  # answered yes/no questions by id
    texts: dict[int, str]  # answered text questions by id, trimmed
    phone_digits: str | None  # the phone's 10 digits
    phone: str | None  # as people read it: (555) 010-2030
    preferred_email: str | None
    address: str | None  # on one line: the address answer, else its parts
    onboarding: list[OnboardingItem]  # every answer with its label, yes/no ones first


def _answer_text(value: object) -> str:
    if isinstance(value, str):
        return value.strip()
    if isinstance(value, int | float) and not isinstance(value, bool):
        return str(value)
    return ""


def employee_profile(*, user: User) -> EmployeeProfile:
    """`user`'s onboarding answers, labelled and with their contact details: one query."""
    answers = onboarding_answers_for_user(user=user)
    yes_no = {a.value: v for a in YES_NO if isinstance(v := answers.get(a.value), bool)}
    texts = {a.value: t for a in TEXT if (t := _answer_text(answers.get(a.value)))}
    digits = phone_digits(texts.get(Answer.PHONE, ""))
    if len(digits) == PHONE_DIGITS:
        texts[Answer.PHONE] = phone_display(digits)
    address = texts.get(Answer.ADDRESS) or address_line(texts.get(p, "") for p in ADDRESS_PARTS)
    items = [
        OnboardingItem(a.value, a.label, "Yes" if yes_no[a] else "No")
        for a in YES_NO
        if a in yes_no
    ]
    items += [OnboardingItem(a.value, a.label, texts[a]) for a in TEXT if a in texts]
    return EmployeeProfile(
        yes_no=yes_no,
        texts=texts,
        phone_digits=digits if len(digits) == PHONE_DIGITS else None,
        phone=texts.get(Answer.PHONE),
        preferred_email=texts.get(Answer.PREFERRED_EMAIL),
        address=address or None,
        onboarding=items,
    )
