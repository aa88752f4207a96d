"""Browser tests of Django admin's content pages, where administrators keep the catalogue and
the surveys (ARCHITECTURE §6): they fit the window, as every screen of the app does."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from concierge.accounts.models import User
from concierge.surveys.models import RequestSurvey
from e2e.conftest import save_screenshot
from e2e.journeys import admin_sign_in

pytestmark = pytest.mark.django_db(transaction=True)
ADMIN_EMAIL = "content@example.com"
ADMIN_PASSWORD = "Content-Sturdy-Pass9"


def test_a_survey_with_its_questions_fits_the_window(page: Page, demo) -> None:
    """Admin: a survey's change page lists its questions in a table wider than the page beside
    the admin's menu; the table scrolls in its own box and the page does not scroll sideways
    (the screenshot checks it)."""
    User.objects.create_superuser(email=ADMIN_EMAIL, password=ADMIN_PASSWORD, first_name="Ari")
    survey = RequestSurvey.objects.get(slug="intro")
    admin_sign_in(page, ADMIN_EMAIL, ADMIN_PASSWORD)
    page.goto(f"/admin/surveys/requestsurvey/{survey.pk}/change/")
    expect(page.get_by_role("heading", name="Change request survey")).to_be_visible()
    expect(page.get_by_role("heading", name="Questions")).to_be_visible()
    save_screenshot(page, "admin-survey-change-desktop", full_page=True)
