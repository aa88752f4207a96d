"""Django admin for benefits & offers: every page an administrator opens renders."""

from __future__ import annotations

import pytest
from django.core.exceptions import ValidationError
from django.test import Client
from django.urls import reverse

from concierge.offerings.models import Offering, OfferingCategory, Section, SectionItem
from concierge.surveys.models import Question, RequestSurvey, SelectOption, SurveyCategory

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client_(user_factory) -> Client:
    admin = user_factory(email="root@example.com", is_staff=True, is_superuser=True)
    client = Client()
    client.force_login(admin)
    return client


@pytest.fixture
def offering(company):
    category = OfferingCategory.objects.create(external_id="health", name="Health")
    offering = Offering.objects.create(
        slug="dental", type="benefit", provider_name="BrightSmile", heading="Dental", name="Plus"
    )
    offering.categories.add(category)
    offering.companies.add(company)
    section = Section.objects.create(offering=offering, section_type="key_value", heading="Contact")
    SectionItem.objects.create(section=section, key="phone", value="1 (800) 555-0100")
    return offering


@pytest.mark.parametrize("model", [OfferingCategory, Offering, Section])
def test_admin_pages_render(admin_client_, offering, model):
    opts = model._meta
    changelist = reverse(f"admin:{opts.app_label}_{opts.model_name}_changelist")
    assert admin_client_.get(changelist).status_code == 200
    assert admin_client_.get(changelist, {"q": "dental"}).status_code == 200
    obj = model.objects.first()
    change = reverse(f"admin:{opts.app_label}_{opts.model_name}_change", args=[obj.pk])
    assert admin_client_.get(change).status_code == 200
    add = reverse(f"admin:{opts.app_label}_{opts.model_name}_add")
    assert admin_client_.get(add).status_code == 200


def test_admin_offering_filters_and_audience(admin_client_, offering, company):
    url = reverse("admin:offerings_offering_changelist")
    response = admin_client_.get(
        url, {"type__exact": "benefit", "companies__id__exact": company.id}
    )
    assert response.status_code == 200
    assert "Dental" in response.content.decode()
    assert "Acme Corp" in response.content.decode()
    response = admin_client_.get(url, {"type__exact": "product"})
    assert "Dental" not in response.content.decode()


def test_issue_29_intake_admin_picks_the_pre_selected_answer_among_the_surveys(
    admin_client_, offering
):
    """Issue 29 'The intake': the 'Get help' answer is picked among the offering's survey's
    options, each named with its question; an answer of another survey is refused."""
    category = SurveyCategory.objects.create(name="Health", icon="medical")
    survey = RequestSurvey.objects.create(name="Help", slug="help", category=category)
    other = RequestSurvey.objects.create(name="Other", slug="other-survey", category=category)
    question = Question.objects.create(
        survey=survey, label="Which benefit?", input_type=Question.InputType.SINGLE_SELECT
    )
    medical = SelectOption.objects.create(question=question, label="Medical", value="medical")
    elsewhere = SelectOption.objects.create(
        question=Question.objects.create(
            survey=other, label="Which pet?", input_type=Question.InputType.SINGLE_SELECT
        ),
        label="Dog",
        value="dog",
    )
    offering.request_survey = survey
    offering.request_survey_cta = "Help me choose"
    offering.save()
    change = reverse("admin:offerings_offering_change", args=[offering.pk])
    page = admin_client_.get(change).content.decode()
    assert "Which benefit? → Medical" in page
    assert "Which pet? → Dog" not in page

    offering.request_survey_answer = elsewhere
    with pytest.raises(ValidationError) as refused:
        offering.full_clean()
    assert "request_survey_answer" in refused.value.message_dict
    offering.request_survey_answer = medical
    offering.full_clean()


def test_s2_admin_is_told_get_help_needs_a_button_label(offering):
    """§ Benefits & Offers 'Offering details drawer': 'Get help' shows only if request_survey_cta
    exists, so an offering given a survey without a label is refused with a reason."""
    category = SurveyCategory.objects.create(name="Health", icon="medical")
    offering.request_survey = RequestSurvey.objects.create(
        name="Help", slug="help", category=category
    )
    with pytest.raises(ValidationError) as refused:
        offering.full_clean()
    assert list(refused.value.message_dict) == ["request_survey_cta"]
    offering.request_survey_cta = "Help me choose"
    offering.full_clean()
