"""Django admin for surveys: every page an administrator opens renders."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from concierge.surveys.models import (
    Question,
    RequestSurvey,
    SelectOption,
    SurveyCategory,
    UserRequestAnswer,
    UserRequestSurvey,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(user_factory) -> Client:
    admin = user_factory(email="root@example.com", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def survey_data(user):
    category = SurveyCategory.objects.create(name="Pet", icon="pet", recommended=True)
    survey = RequestSurvey.objects.create(
        id=616, name="Find a dog walker", slug="dog", category=category
    )
    size = Question.objects.create(
        survey=survey, position=1, label="How big?", input_type="SingleSelectInput"
    )
    SelectOption.objects.create(question=size, label="Large", value="large")
    follow_up = Question.objects.create(
        survey=survey,
        position=2,
        label="Strong walker needed?",
        input_type="TextInput",
        show_if_question=size,
        show_if_value="large",
    )
    run = UserRequestSurvey.objects.create(user=user, survey=survey)
    UserRequestAnswer.objects.create(user_request_survey=run, question=size, value="large")
    return {"category": category, "survey": survey, "question": follow_up, "run": run}


@pytest.mark.parametrize("model", [SurveyCategory, RequestSurvey, Question, UserRequestSurvey])
def test_admin_pages_render(admin_client_, survey_data, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client_.get(changelist).status_code == 200
    assert admin_client_.get(changelist, {"q": "dog"}).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client_.get(change).status_code == 200
    if model is not UserRequestSurvey:
        add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
        assert admin_client_.get(add).status_code == 200


def test_admin_branching_choices_are_the_same_surveys_other_questions(admin_client_, survey_data):
    other = RequestSurvey.objects.create(
        name="Other", slug="other", category=survey_data["category"]
    )
    Question.objects.create(survey=other, position=1, label="Elsewhere", input_type="TextInput")
    question = survey_data["question"]
    page = admin_client_.get(reverse("admin:surveys_question_change", args=[question.pk]))
    html = page.content.decode()
    assert "How big?" in html
    assert "Elsewhere" not in html
