"""Issue 27 'Download my data': the survey answers behind each request, as the person gave
them."""

from __future__ import annotations

import pytest

from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SelectOption,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)
from concierge.surveys.personal_data import survey_answers_export

pytestmark = pytest.mark.django_db


def test_issue27_a_choice_is_exported_as_the_option_the_person_picked(user):
    """A single-choice answer reads as its option's label ('Studio or 1 bedroom'), beside the
    stored code; a typed answer as typed."""
    category = SurveyCategory.objects.create(name="Home")
    survey = RequestSurvey.objects.create(
        name="Home cleaning", slug="home-cleaning", category=category
    )
    size = Question.objects.create(
        survey=survey, position=1, label="How big is your home?",
        input_type=Question.InputType.SINGLE_SELECT,
    )  # fmt: skip
    SelectOption.objects.create(question=size, label="Studio or 1 bedroom", value="studio_or_1")
    SelectOption.objects.create(question=size, label="2 bedrooms", value="two_bedrooms")
    notes = Question.objects.create(
        survey=survey, position=2, label="Anything else?", input_type=Question.InputType.TEXT
    )
    run = UserRequestSurvey.objects.create(user=user, survey=survey)
    UserRequestAnswer.objects.create(user_request_survey=run, question=size, value="studio_or_1")
    UserRequestAnswer.objects.create(user_request_survey=run, question=notes, value="Two cats")

    assert survey_answers_export(user=user)[None] == [
        {
            "survey": "Home cleaning",
            "question": "How big is your home?",
            "answer": "Studio or 1 bedroom",
            "value": "studio_or_1",
            "file": None,
            "upload_key": None,
        },
        {
            "survey": "Home cleaning",
            "question": "Anything else?",
            "answer": "Two cats",
            "value": "Two cats",
            "file": None,
            "upload_key": None,
        },
    ]
