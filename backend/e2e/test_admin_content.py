"""Browser tests of Django admin's content pages, where administrators keep the catalogue and
the surveys (ARCHITECTURE §6): they fit the window, as every screen of the app does."""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from concierge.accounts.models import Company, EmployeeRecord, User
from concierge.surveys.models import RequestSurvey
from e2e.a11y import expect_axe_clean
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


# The results table's width against its box's (the box scrolls on its own when it is wider).
_RESULTS_FIT = """() => {
  const box = document.querySelector('#changelist-form .results');
  return box.scrollWidth <= box.clientWidth;
}"""


def test_list_pages_fit_and_name_the_actor_and_date_time_inputs_are_labelled(
    page: Page, demo
) -> None:
    """Admin at 1440 x 900: the audit trail's and the employee records' lists fit their
    column beside the menu and the filters (no column behind the table's own scrollbar), the
    audit trail names who acted; a company's creation time is read-only, and an invite's
    date and time inputs carry their field's name (axe, in the screenshot's check)."""
    User.objects.create_superuser(email=ADMIN_EMAIL, password=ADMIN_PASSWORD, first_name="Ari")
    acme = Company.objects.get(slug="acme")
    for n, active in enumerate((True, False)):
        EmployeeRecord.objects.create(
            company=acme,
            email=f"jordan.whitfield-{n}@acme.example",
            employee_id=f"EMP-10000{n}",
            source=EmployeeRecord.Source.ROSTER,
            active=active,
            joined_at=timezone.now(),
            deactivated_at=None if active else timezone.now(),
        )
    admin_sign_in(page, ADMIN_EMAIL, ADMIN_PASSWORD)

    page.goto("/admin/audit/auditevent/")
    expect(page.get_by_role("columnheader", name="Actor")).to_be_visible()
    expect(page.get_by_role("link", name=ADMIN_EMAIL).first).to_be_visible()
    assert page.evaluate(_RESULTS_FIT)
    save_screenshot(page, "admin-audit-events-desktop")

    page.goto("/admin/accounts/employeerecord/")
    expect(page.get_by_role("columnheader", name="Status")).to_be_visible()
    assert page.evaluate(_RESULTS_FIT)
    save_screenshot(page, "admin-employee-records-desktop")

    page.goto(f"/admin/accounts/company/{acme.pk}/change/")
    expect(page.get_by_role("heading", name="Change company")).to_be_visible()
    expect(page.locator("input[name^='created_at']")).to_have_count(0)

    page.goto("/admin/accounts/companyinvite/add/")
    expect(page.get_by_label("Expires at: date")).to_be_visible()
    expect(page.get_by_label("Expires at: time")).to_be_visible()
    save_screenshot(page, "admin-invite-add-desktop", full_page=True)


def test_two_box_selects_are_clean_for_screen_readers(page: Page, demo) -> None:
    """Admin: the two-box selects of an offering's companies and categories and of a person's
    companies, groups and permissions label their filter boxes with a magnifier icon, read as a
    picture of its hint (axe-core finds nothing on either page)."""
    admin = User.objects.create_superuser(
        email=ADMIN_EMAIL, password=ADMIN_PASSWORD, first_name="Ari"
    )
    admin_sign_in(page, ADMIN_EMAIL, ADMIN_PASSWORD)
    for address in ("/admin/offerings/offering/add/", f"/admin/accounts/user/{admin.pk}/change/"):
        page.goto(address)
        icons = page.locator("#id_companies_filter span.help-tooltip")
        expect(icons).to_have_attribute("role", "img")
        expect_axe_clean(page, address)
