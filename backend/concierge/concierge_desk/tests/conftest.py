from __future__ import annotations

import pytest

from concierge.servicerequests.models import ServiceRequest
from concierge.surveys import services as survey_services
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory


@pytest.fixture(autouse=True)
def _local_media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def surveyed_request(user):
    """A request made through a survey: a choice, a text answer and a skipped question."""
    category = SurveyCategory.objects.create(name="Pet", icon="pet")
    survey = RequestSurvey.objects.create(
        name="Find a dog walker", slug="walker", category=category
    )
    size = Question.objects.create(
        survey=survey, position=1, label="How big is your dog?", input_type="SingleSelectInput"
    )
    SelectOption.objects.create(question=size, label="Large (25 lb or more)", value="large")
    when = Question.objects.create(
        survey=survey, position=2, label="When do you need walks?", input_type="TextInput"
    )
    extra = Question.objects.create(
        survey=survey, position=3, label="Anything else?", input_type="TextInput", optional=True
    )
    run = survey_services.user_request_survey_begin(user=user, survey_id=survey.pk)
    for question, value in ((size, "large"), (when, "Weekdays at noon"), (extra, None)):
        survey_services.user_request_answer_save(
            user=user,
            user_request_survey_id=run.pk,
            question_id=question.pk,
            object_type="Datum",
            value=value,
        )
    request_id = survey_services.user_request_survey_submit(
        user=user, user_request_survey_id=run.pk
    )
    return ServiceRequest.objects.get(pk=request_id)
