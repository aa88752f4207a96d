"""Issue 11 'Boundaries': one owner for the onboarding answer ids (accounts.onboarding) and one
employee profile, read by the survey pre-fill and the concierge desk alike."""

from __future__ import annotations

import pytest

from concierge.accounts.models import OnboardingAnswer
from concierge.accounts.onboarding import ADDRESS_PARTS, ALL, YES_NO, Answer
from concierge.accounts.selectors.onboarding import employee_profile
from concierge.accounts.services.onboarding import onboarding_answers_save
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory
from concierge.surveys.selectors import universal_answer_for_user

pytestmark = pytest.mark.django_db


def test_the_spec_ids_are_named_once():
    """§3 onboarding ids: yes/no (132, 134, 121, 122, 120), phone 104, email 165, address 611
    and its parts 148, 149, 150, 151, 311, 313."""
    assert [int(a) for a in YES_NO] == [132, 134, 121, 122, 120]
    assert (Answer.PHONE, Answer.PREFERRED_EMAIL, Answer.ADDRESS) == (104, 165, 611)
    assert [int(a) for a in ADDRESS_PARTS] == [148, 149, 150, 151, 311, 313]
    assert set(ALL) == {*YES_NO, 104, 165, 611, *ADDRESS_PARTS}


def test_profile_formats_the_phone_and_joins_the_address_once(user):
    onboarding_answers_save(
        user=user,
        answers=[
            {"answer_id": Answer.HAS_PET, "value": True},
            {"answer_id": Answer.HAS_CAR, "value": False},
            {"answer_id": Answer.PHONE, "value": "555.123.4567"},
            {"answer_id": Answer.ADDRESS_LINE_1, "value": " 1 Main St "},
            {"answer_id": Answer.CITY, "value": "Springfield"},
            {"answer_id": Answer.STATE, "value": "IL"},
            {"answer_id": Answer.POSTAL_CODE, "value": "62701"},
            {"answer_id": Answer.COUNTRY, "value": "USA"},
        ],
    )
    profile = employee_profile(user=user)
    assert (profile.phone, profile.phone_digits) == ("(555) 123-4567", "5551234567")
    assert profile.address == "1 Main St, Springfield, IL, 62701, USA"
    assert profile.preferred_email is None
    assert profile.yes_no == {Answer.HAS_CAR: False, Answer.HAS_PET: True}
    assert [(i.label, i.value) for i in profile.onboarding][:3] == [
        ("Has a car", "No"),
        ("Has a pet", "Yes"),
        ("Phone", "(555) 123-4567"),
    ]


def test_an_address_answer_wins_over_its_parts_and_a_number_reads_as_text(user):
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.ADDRESS, value="1 Elm St, Paris")
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.POSTAL_CODE, value=75001)
    profile = employee_profile(user=user)
    assert profile.address == "1 Elm St, Paris"
    assert profile.texts[Answer.POSTAL_CODE] == "75001"


def test_survey_prefill_reads_the_same_profile(user):
    """§3 universal answers: the phone as its 10 digits, the preferred email (else the account
    email), the address on one line, a part as text."""
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.PHONE, value="(555) 010-2030")
    OnboardingAnswer.objects.create(user=user, answer_id=Answer.CITY, value="Springfield")
    category = SurveyCategory.objects.create(name="Pet", icon=SurveyCategory.Icon.PET)
    survey = RequestSurvey.objects.create(name="Walker", slug="walker", category=category)

    def prefill(answer: Answer) -> str | None:
        question = Question.objects.create(
            survey=survey,
            label=answer.label,
            input_type=Question.InputType.TEXT,
            universal_answer=answer,
        )
        return universal_answer_for_user(user=user, question=question)

    profile = employee_profile(user=user)
    assert prefill(Answer.PHONE) == profile.phone_digits == "5550102030"
    assert prefill(Answer.PREFERRED_EMAIL) == user.email
    assert prefill(Answer.ADDRESS) == profile.address == "Springfield"
    assert prefill(Answer.CITY) == "Springfield"
    assert prefill(Answer.COUNTRY) is None
