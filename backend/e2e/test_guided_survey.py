"""Browser tests for the issue's 'The guided survey': progress ('Question n of m'), a text
question pre-filled from its universal answer (the address), and a request summary that reads
naturally (no doubled punctuation, skipped questions left out). Starting fresh after 'Yes,
cancel' and 'Continue where you left off?' are in test_requests.py.

The demo data (`seed_demo`) provides Dana (demo@example.com) and survey 628 'Renew my passport':
a select, an optional text question and the phone.
"""

from __future__ import annotations

import io
import re

import pytest
from django.core.management import call_command
from playwright.sync_api import Page, expect

from concierge.accounts.models import OnboardingAnswer, User
from concierge.servicerequests.models import ServiceRequest
from concierge.surveys.models import Question, RequestSurvey, SurveyCategory
from e2e.conftest import SCREENSHOT_DIR, asked, continue_button, settle
from e2e.test_accessibility import (
    DEMO_PASSWORD,
    PASSPORT,
    Q_PASSPORT,
    Q_PHONE,
    Q_TRIP,
    sign_in,
)

pytestmark = pytest.mark.django_db(transaction=True)

ADDRESS_QUESTION = "Where should the locksmith come?"


@pytest.fixture
def demo(transactional_db, monkeypatch) -> None:
    monkeypatch.setenv("DEMO_PASSWORD", DEMO_PASSWORD)
    call_command("seed_demo", stdout=io.StringIO())


def shot(page: Page, name: str, viewport_name: str) -> None:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SCREENSHOT_DIR / f"survey-{name}-{viewport_name}.png"))


def progress(page: Page, name: str):
    return page.get_by_role("progressbar", name=name, exact=True)


def test_progress_and_a_summary_that_reads_naturally(page: Page, demo, viewport_name: str) -> None:
    """The guided survey: 'Question n of 3' on each question; the submitted request's details
    read 'Your current passport is… Expired…' with the skipped trip question left out."""
    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    travel = SurveyCategory.objects.get(icon=SurveyCategory.Icon.TRAVEL)
    page.goto(f"/requests/category/{travel.pk}")
    page.get_by_role("button", name=PASSPORT).click()

    asked(page, Q_PASSPORT)
    expect(progress(page, "Question 1 of 3")).to_be_visible()
    shot(page, "progress", viewport_name)
    radio = page.get_by_role("radio", name="Expired less than 5 years ago")
    radio.locator("xpath=ancestor::label[1]").click()
    continue_button(page).click()
    asked(page, Q_TRIP)
    expect(progress(page, "Question 2 of 3")).to_be_visible()
    page.get_by_role("button", name="Skip", exact=True).click()
    asked(page, Q_PHONE)
    expect(progress(page, "Question 3 of 3")).to_be_visible()
    continue_button(page).click()

    review = page.get_by_role("region", name="Review your request")
    settle(page)
    review.get_by_role("button", name="Submit", exact=True).click()
    expect(page.get_by_role("heading", name="We've received your request")).to_be_visible()

    request = ServiceRequest.objects.get(user__email="demo@example.com")
    assert request.details == (
        f"{Q_PASSPORT} Expired less than 5 years ago\n{Q_PHONE} (555) 010-2030"
    ), request.details

    page.goto(f"/requests/{request.pk}")
    first = page.get_by_role("list", name="Messages").get_by_role("listitem").first
    expect(first).to_contain_text(f"{Q_PASSPORT} Expired less than 5 years ago")
    expect(first).not_to_contain_text("Question Skipped")
    expect(first).not_to_contain_text("?:")
    shot(page, "summary-in-thread", viewport_name)


def test_text_question_prefilled_from_the_address(page: Page, demo, viewport_name: str) -> None:
    """The guided survey: a text question whose universal answer is the address (611) starts
    with the address from onboarding, as phone and email questions do."""
    dana = User.objects.get(email="demo@example.com")
    for answer_id, value in ((148, "12 Elm Street"), (150, "Springfield"), (151, "IL")):
        OnboardingAnswer.objects.create(user=dana, answer_id=answer_id, value=value)
    for answer_id, value in ((311, "62701"), (313, "United States")):
        OnboardingAnswer.objects.create(user=dana, answer_id=answer_id, value=value)
    home = SurveyCategory.objects.get(icon=SurveyCategory.Icon.HOME)
    survey = RequestSurvey.objects.create(
        name="Call a locksmith", slug="locksmith", category=home, for_alpha=True
    )
    Question.objects.create(
        survey=survey,
        position=1,
        label=ADDRESS_QUESTION,
        input_type=Question.InputType.TEXT,
        universal_answer=611,
    )

    sign_in(page, "demo@example.com", DEMO_PASSWORD, "/dashboard")
    page.goto(f"/requests/category/{home.pk}")
    page.get_by_role("button", name="Call a locksmith").click()
    asked(page, ADDRESS_QUESTION)
    field = page.get_by_role("textbox", name=ADDRESS_QUESTION, exact=True)
    expect(field).to_have_value(re.compile(r"^12 Elm Street.*Springfield.*62701"))
    shot(page, "address-prefilled", viewport_name)
